import { okx, type RatePool } from '@gridbot/venues';
import type { FastifyInstance } from 'fastify';
import type { AccountBook } from '../accounts';
import { headerOf, pathOf, RateWindows } from '../rate-windows';
import { clientIp } from '../signed-request';
import { envelope, okxError } from './okx-error';

/**
 * OKX's limits as the table defines them (`okx.pools`, `okx.requestCost`): each call costs 1 in its
 * own pool, public pools count per IP, private ones per account (the table's stricter reading of
 * "per User ID and instrument"), in fixed 2-second windows. Over a limit: 50011 with HTTP 429, no
 * ban and no wait header (`okx.overLimit`). A call the table does not cost passes.
 * docs/venues/okx.md#rate-limits, #bans
 */
export class OkxRateLimits {
  private readonly windows: RateWindows;

  constructor(limits: Readonly<Record<string, number>> = {}, now: () => number = Date.now) {
    this.windows = new RateWindows(okx.pools, now, 'OKX');
    this.setLimits(limits);
  }

  /** Lowers (or raises) pools by id (`okx.pools`); returns every pool's limit in force. */
  setLimits(limits: Readonly<Record<string, number>>): Record<string, number> {
    return this.windows.setLimits(limits);
  }

  /** OKX's limits again, and no usage. */
  reset(): void {
    this.windows.reset();
  }

  /** Charges the call; false (nothing charged) when one of its pools is full. */
  admit(method: string, path: string, ip: string, accountId: number | undefined): boolean {
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
      if (!this.windows.fits(pool, who, units, now)) return false;
      charged.push({ pool, who, units });
    }
    for (const { pool, who, units } of charged) this.windows.charge(pool, who, units, now);
    return true;
  }
}

/** Enforces the limits on `/api/v5/` before anything else is checked (as OKX's gateway does). */
export const enforceOkxRateLimits = (
  app: FastifyInstance,
  limits: OkxRateLimits,
  accounts: AccountBook,
): void => {
  app.addHook('onRequest', async (request, reply) => {
    const path = pathOf(request);
    if (!path.startsWith('/api/v5/')) return;
    const apiKey = headerOf(request, 'ok-access-key');
    const accountId = apiKey ? accounts.key(apiKey)?.accountId : undefined;
    if (limits.admit(request.method, path, clientIp(request), accountId)) return;
    const refusal = okxError('50011');
    return reply
      .status(refusal.httpStatus)
      .type('application/json')
      .send(JSON.stringify(envelope(refusal.code, refusal.msg, [])));
  });
};
