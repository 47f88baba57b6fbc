import { bybit, type RatePool } from '@gridbot/venues';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DialectRequestLog } from '../dialect-request-log';
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

type Counter = { window: number; used: number };

/**
 * Bybit's rate limits as the sandbox enforces them (docs/venues/bybit.md#rate-limits, #bans;
 * rate-limit.mdx): every REST call counts 1 against its IP's 600 per 5 s; past it, HTTP 403 "access
 * too frequent" and a ban of `overLimit.firstBanMs` (10 minutes) for every request of that IP. A
 * private call counts against its endpoint's per-UID budget a second (`requestCost`); past it,
 * retCode 10006 in an HTTP 200 answer. Every private answer carries X-Bapi-Limit (the limit),
 * X-Bapi-Limit-Status (what is left) and X-Bapi-Limit-Reset-Timestamp (when the window refills once
 * the limit is hit, otherwise the current time). Windows are fixed, as in the Binance dialect.
 */
export class BybitRateLimits {
  private limits = new Map<string, number>();
  private readonly counters = new Map<string, Counter>();
  private readonly bannedUntil = new Map<string, number>();
  /** `<pool>|uid:<id>` → refused until (forced). */
  private readonly forced = new Map<string, number>();
  /** The requests to `/v5/` (the control API's are not logged). */
  readonly log = new DialectRequestLog();

  constructor(private readonly now: () => number) {}

  setLimits(limits: BybitPoolLimits): BybitPoolLimits {
    for (const [id, limit] of Object.entries(limits)) {
      if (!bybit.pools.some((p) => p.id === id)) throw new Error(`unknown Bybit pool ${id}`);
      if (!Number.isInteger(limit) || limit < 1)
        throw new Error(`${id}: the limit must be a positive integer`);
      this.limits.set(id, limit);
    }
    return Object.fromEntries(bybit.pools.map((p) => [p.id, this.limitOf(p)]));
  }

  /** Bans `ip` (every IP without one) for `ms`, as if it had gone over the IP limit. */
  ban(ms: number = bybit.overLimit.firstBanMs, ip = '*'): void {
    this.bannedUntil.set(ip, this.now() + ms);
  }

  /** Forces 10006 on one account's per-UID pool (BybitForcedRefusal); answers when it ends. */
  force({ pool, accountId, forMs }: BybitForcedRefusal): number {
    const spec = bybit.pools.find((p) => p.id === pool);
    if (spec?.scope !== 'account') throw new Error(`${pool}: not a per-UID Bybit pool`);
    const until = this.now() + forMs;
    this.forced.set(`${pool}|uid:${accountId}`, until);
    return until;
  }

  /** Bybit's limits again; no usage, no bans, no forced refusals, an empty log. */
  reset(): void {
    this.limits.clear();
    this.counters.clear();
    this.bannedUntil.clear();
    this.forced.clear();
    this.log.clear();
  }

  /** Counts a REST call of `ip`: false when the IP is banned or goes over its limit now (and is banned). */
  admitIp(ip: string): boolean {
    const now = this.now();
    if (Math.max(this.bannedUntil.get(ip) ?? 0, this.bannedUntil.get('*') ?? 0) > now) return false;
    const pool = bybit.pools.find((p) => p.scope === 'ip')!;
    const counter = this.counter(pool, ip, now);
    if (counter.used + 1 > this.limitOf(pool)) {
      this.bannedUntil.set(ip, now + bybit.overLimit.firstBanMs);
      return false;
    }
    counter.used += 1;
    return true;
  }

  /** Counts a private call of account `uid` against its endpoint's pool (undefined: no per-UID pool). */
  admitUid(uid: number, method: string, path: string, params: URLSearchParams): UidAnswer | undefined {
    const cost = bybit.requestCost({ method, path, params });
    const pool = bybit.pools.find((p) => p.scope === 'account' && (cost[p.id] ?? 0) > 0);
    if (!pool) return undefined;
    const now = this.now();
    const limit = this.limitOf(pool);
    const forcedUntil = this.forced.get(`${pool.id}|uid:${uid}`) ?? 0;
    if (forcedUntil > now) return { limit, left: 0, resetAt: forcedUntil, over: true, forced: true };
    const counter = this.counter(pool, `uid:${uid}`, now);
    const resetAt = counter.window + pool.windowMs;
    if (counter.used + cost[pool.id]! > limit) return { limit, left: 0, resetAt, over: true };
    counter.used += cost[pool.id]!;
    return { limit, left: limit - counter.used, resetAt: now, over: false };
  }

  private limitOf(pool: RatePool): number {
    return this.limits.get(pool.id) ?? pool.limit;
  }

  private counter(pool: RatePool, key: string, now: number): Counter {
    const window = Math.floor(now / pool.windowMs) * pool.windowMs;
    const id = `${pool.id}|${key}`;
    let counter = this.counters.get(id);
    if (!counter || counter.window !== window) {
      counter = { window, used: 0 };
      this.counters.set(id, counter);
    }
    return counter;
  }
}

const pathOf = (url: string) => url.split('?')[0] ?? '';
const queryOf = (url: string) =>
  new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');

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
    const header = request.headers['x-bapi-api-key'];
    const apiKey = Array.isArray(header) ? header[0] : header;
    const key = apiKey ? exchange.accounts.key(apiKey) : undefined;
    const ip = clientIp(request);
    limits.log.arrived(request, {
      time: Date.now(),
      ip,
      method: request.method,
      path: pathOf(request.url),
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
    const answer = limits.admitUid(key.accountId, request.method, pathOf(request.url), queryOf(request.url));
    if (!answer) return;
    reply.header('X-Bapi-Limit', String(answer.limit));
    reply.header('X-Bapi-Limit-Status', String(answer.left));
    reply.header('X-Bapi-Limit-Reset-Timestamp', String(answer.resetAt));
    if (!answer.over) return;
    limits.log.refused(request, '10006', answer.forced);
    return refuse(reply);
  });
};
