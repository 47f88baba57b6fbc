import { bybit } from '@gridbot/venues';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DialectRequestLog } from '../dialect-request-log';
import { EVERY, headerOf, pathOf, queryOf, RateWindows } from '../rate-windows';
import type { SandboxExchange } from '../sandbox-exchange';
import { clientIp } from '../signed-request';
import { bybitError, envelope } from './bybit-error';

/** Pool id → limit, e.g. `{ ORDER_REALTIME: 3, IP_5S: 10 }` (ids of `bybit.pools`). */
export type BybitPoolLimits = Record<string, number>;

/** What a per-UID pool says in the three X-Bapi-Limit headers. */
type UidAnswer = { limit: number; left: number; resetAt: number; over: boolean; forced?: boolean };

/**
 * A refusal forced through the control API: the account's `pool` answers 10006 until `forMs` from
 * now, its X-Bapi-Limit-Reset-Timestamp that time (as Bybit answers an endpoint whose budget is
 * spent until then). docs/venues/bybit.md#rate-limits
 */
export type BybitForcedRefusal = { pool: string; accountId: number; forMs: number };

/**
 * Bybit's rate limits as the sandbox enforces them (docs/venues/bybit.md#rate-limits, #bans;
 * rate-limit.mdx): every REST call counts 1 against its IP's 600 per 5 s; past it, HTTP 403 "access
 * too frequent" and a ban of `overLimit.firstBanMs` (10 minutes) for every request of that IP. A
 * private call counts against its endpoint's per-UID budget a second (`requestCost`); past it,
 * retCode 10006 in an HTTP 200 answer. Every private answer carries X-Bapi-Limit (the limit),
 * X-Bapi-Limit-Status (what is left) and X-Bapi-Limit-Reset-Timestamp (when the oldest request of
 * the window leaves it once the limit is hit, otherwise the current time). Both limits count the
 * last 5 s or second at every moment (rolling: "The API rate limit is based on the rolling time
 * window per second and UID"), not windows that start on the clock.
 */
export class BybitRateLimits {
  private readonly windows: RateWindows;
  /** The requests to `/v5/` (the control API's are not logged). */
  readonly log = new DialectRequestLog();

  constructor(now: () => number) {
    this.windows = new RateWindows(bybit.pools, now, 'Bybit');
  }

  setLimits(limits: BybitPoolLimits): BybitPoolLimits {
    return this.windows.setLimits(limits);
  }

  /** Bans `ip` (every IP without one) for `ms`, as if it had gone over the IP limit. */
  ban(ms: number = bybit.overLimit.firstBanMs, ip = EVERY): void {
    this.windows.close('ban', ip, this.windows.now() + ms);
  }

  /** Forces 10006 on one account's per-UID pool (BybitForcedRefusal); answers when it ends. */
  force({ pool, accountId, forMs }: BybitForcedRefusal): number {
    const spec = bybit.pools.find((p) => p.id === pool);
    if (spec?.scope !== 'account') throw new Error(`${pool}: not a per-UID Bybit pool`);
    const until = this.windows.now() + forMs;
    // A closure of the windows' own (`forced`, `<pool>|uid:<id>`): reset() ends it with the rest.
    this.windows.close('forced', `${pool}|uid:${accountId}`, until);
    return until;
  }

  /** Bybit's limits again; no usage, no bans, no forced refusals, an empty log. */
  reset(): void {
    this.windows.reset();
    this.log.clear();
  }

  /** Counts a REST call of `ip`: false when the IP is banned or goes over its limit now (and is banned). */
  admitIp(ip: string): boolean {
    const now = this.windows.now();
    if (this.windows.closedUntil('ban', ip) > now) return false;
    const pool = bybit.pools.find((p) => p.scope === 'ip')!;
    if (!this.windows.fits(pool, ip, 1, now)) {
      this.windows.close('ban', ip, now + bybit.overLimit.firstBanMs);
      return false;
    }
    this.windows.charge(pool, ip, 1, now);
    return true;
  }

  /** Counts a private call of account `uid` against its endpoint's pool (undefined: no per-UID pool). */
  admitUid(uid: number, method: string, path: string, params: URLSearchParams): UidAnswer | undefined {
    const cost = bybit.requestCost({ method, path, params });
    const pool = bybit.pools.find((p) => p.scope === 'account' && (cost[p.id] ?? 0) > 0);
    if (!pool) return undefined;
    const now = this.windows.now();
    const limit = this.windows.limitOf(pool);
    const key = `uid:${uid}`;
    const forcedUntil = this.windows.closedUntil('forced', `${pool.id}|${key}`);
    if (forcedUntil > now) return { limit, left: 0, resetAt: forcedUntil, over: true, forced: true };
    const resetAt = this.windows.refillAt(pool, now, key);
    if (!this.windows.fits(pool, key, cost[pool.id]!, now)) return { limit, left: 0, resetAt, over: true };
    return {
      limit,
      left: limit - this.windows.charge(pool, key, cost[pool.id]!, now),
      resetAt: now,
      over: false,
    };
  }
}

/** The three headers of a private answer (rate-limit.mdx). */
const limitHeaders = (answer: UidAnswer) => ({
  'X-Bapi-Limit': String(answer.limit),
  'X-Bapi-Limit-Status': String(answer.left),
  'X-Bapi-Limit-Reset-Timestamp': String(answer.resetAt),
});

/**
 * Bybit checks its limits before anything else: the IP's on every `/v5/` call, then the account's
 * per-endpoint budget of a private call whose X-BAPI-API-KEY names a known key (the UID is the
 * key's account). The headers are set here, so they ride on the answer, a refusal included.
 */
export const enforceBybitRateLimits = (
  app: FastifyInstance,
  exchange: SandboxExchange,
  limits: BybitRateLimits,
): void => {
  const refuse = (reply: FastifyReply) =>
    reply
      .status(200)
      .type('application/json')
      .send(JSON.stringify(envelope(10006, bybitError('10006').retMsg, {}, exchange.now())));
  limits.log.attach(app);
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/v5/')) return;
    const apiKey = headerOf(request, 'x-bapi-api-key');
    const key = apiKey ? exchange.accounts.key(apiKey) : undefined;
    const ip = clientIp(request);
    limits.log.arrived(request, {
      time: Date.now(),
      ip,
      method: request.method,
      path: pathOf(request),
      ...(key ? { accountId: key.accountId } : {}),
    });
    if (!limits.admitIp(ip)) {
      limits.log.refused(request, 'ban');
      return reply
        .status(bybit.overLimit.bannedStatus ?? 403)
        .type('text/plain')
        .send(bybit.ipBan.message);
    }
    if (!key) return;
    // A batch's size is in its JSON body, unread at this point: it counts as one order here.
    const answer = limits.admitUid(key.accountId, request.method, pathOf(request), queryOf(request));
    if (!answer) return;
    void reply.headers(limitHeaders(answer));
    if (!answer.over) return;
    limits.log.refused(request, '10006', answer.forced);
    return refuse(reply);
  });
};
