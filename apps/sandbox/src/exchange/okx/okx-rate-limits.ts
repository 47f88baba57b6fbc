import { okx, type RatePool } from '@gridbot/venues';
import type { FastifyInstance } from 'fastify';
import type { AccountBook } from '../accounts';
import { DialectRequestLog } from '../dialect-request-log';
import { headerOf, pathOf, RateWindows } from '../rate-windows';
import { clientIp } from '../signed-request';
import { envelope, okxError } from './okx-error';

/**
 * A refusal forced through the control API: `pool` of one account (a private pool) or one IP (a
 * public one) answers 50011 until `forMs` from now, by default until its current window ends (as
 * OKX answers a pool whose window is spent; OKX says no more, docs/venues/okx.md#bans).
 */
export type OkxForcedRefusal = { pool: string; accountId?: number; ip?: string; forMs?: number };

/**
 * OKX's limits as the table defines them (`okx.pools`, `okx.requestCost`): each call costs 1 in its
 * own pool, public pools count per IP, private ones per account (the table's stricter reading of
 * "per User ID and instrument"), in fixed 2-second windows. Over a limit: 50011 with HTTP 429, no
 * ban and no wait header (`okx.overLimit`). A call the table does not cost passes.
 * docs/venues/okx.md#rate-limits, #bans
 */
export class OkxRateLimits {
  private readonly windows: RateWindows;
  /** The requests to `/api/v5/` (the control API's are not logged). */
  readonly log = new DialectRequestLog();

  constructor(limits: Readonly<Record<string, number>> = {}, now: () => number = Date.now) {
    this.windows = new RateWindows(okx.pools, now, 'OKX');
    this.setLimits(limits);
  }

  /** Lowers (or raises) pools by id (`okx.pools`); returns every pool's limit in force. */
  setLimits(limits: Readonly<Record<string, number>>): Record<string, number> {
    return this.windows.setLimits(limits);
  }

  /** Forces 50011 on one owner's pool (OkxForcedRefusal); answers when it ends. */
  force({ pool, accountId, ip, forMs }: OkxForcedRefusal): number {
    const spec = okx.pools.find((p) => p.id === pool);
    if (!spec) throw new Error(`unknown OKX pool ${pool}`);
    const who = spec.scope === 'ip' ? (ip === undefined ? undefined : `ip:${ip}`) : accountId;
    if (who === undefined)
      throw new Error(
        `${pool}: counted per ${spec.scope === 'ip' ? 'IP: name the ip' : 'account: name the apiKey'}`,
      );
    const now = this.windows.now();
    const until = forMs === undefined ? this.windows.refillAt(spec, now) : now + forMs;
    // A closure of the windows' own (`forced`, `<pool>|<who>`): reset() ends it with the rest.
    this.windows.close('forced', `${pool}|${spec.scope === 'ip' ? who : `account:${who}`}`, until);
    return until;
  }

  /** OKX's limits again, no usage, no forced refusals, an empty log. */
  reset(): void {
    this.windows.reset();
    this.log.clear();
  }

  /**
   * Charges the call: `ok`, or (nothing charged) refused because one of its pools is full or a
   * refusal of it was forced.
   */
  admit(
    method: string,
    path: string,
    ip: string,
    accountId: number | undefined,
  ): { ok: true } | { ok: false; forced: boolean } {
    const cost = okx.requestCost({ method, path, params: new URLSearchParams() });
    const now = this.windows.now();
    const charged: Array<{ pool: RatePool; who: string; units: number }> = [];
    for (const pool of okx.pools) {
      const units = cost[pool.id] ?? 0;
      if (units === 0) continue;
      const who =
        pool.scope === 'ip' ? `ip:${ip}` : accountId === undefined ? undefined : `account:${accountId}`;
      // A private call without a known key is refused by its signature check, not counted.
      if (who === undefined) continue;
      if (this.windows.closedUntil('forced', `${pool.id}|${who}`) > now) return { ok: false, forced: true };
      if (!this.windows.fits(pool, who, units, now)) return { ok: false, forced: false };
      charged.push({ pool, who, units });
    }
    for (const { pool, who, units } of charged) this.windows.charge(pool, who, units, now);
    return { ok: true };
  }
}

/** Enforces the limits on `/api/v5/` before anything else is checked (as OKX's gateway does). */
export const enforceOkxRateLimits = (
  app: FastifyInstance,
  limits: OkxRateLimits,
  accounts: AccountBook,
): void => {
  limits.log.attach(app);
  app.addHook('onRequest', async (request, reply) => {
    const path = pathOf(request);
    if (!path.startsWith('/api/v5/')) return;
    const apiKey = headerOf(request, 'ok-access-key');
    const accountId = apiKey ? accounts.key(apiKey)?.accountId : undefined;
    const ip = clientIp(request);
    limits.log.arrived(request, {
      time: Date.now(),
      ip,
      method: request.method,
      path,
      ...(accountId === undefined ? {} : { accountId }),
    });
    const admitted = limits.admit(request.method, path, ip, accountId);
    if (admitted.ok) return;
    limits.log.refused(request, '50011', admitted.forced);
    const refusal = okxError('50011');
    return reply
      .status(refusal.httpStatus)
      .type('application/json')
      .send(JSON.stringify(envelope(refusal.code, refusal.msg, [])));
  });
};
