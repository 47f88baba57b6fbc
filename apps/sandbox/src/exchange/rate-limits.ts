import { binance, type RatePool, type RequestShape } from '@gridbot/venues';
import { EVERY, RateWindows } from './rate-windows';

/**
 * Binance's rate limits as the sandbox enforces them: every pool of `binance.pools` (request weight
 * and raw requests per IP, orders per account) in fixed windows, costs from `binance.requestCost`,
 * 429 over a limit, 418 bans for an IP that keeps sending inside a 429's Retry-After, escalating
 * for repeat offenders (`binance.overLimit`). docs/venues/binance.md#rate-limits, #bans; Binance
 * spot API docs, rest-api.md#ip-limits and #unfilled-order-count.
 */

/** Pool id → limit, e.g. `{ REQUEST_WEIGHT: 100 }` (ids of `binance.pools`). */
export type PoolLimits = Record<string, number>;

/**
 * Answers forced through the control API: `status` 429 makes requests answer as if the limit were
 * hit (the next request of each IP gets 429 with Retry-After; one sent inside it earns a ban),
 * 418 as if the IP were banned for `retryAfterS`. Without `ip`, for every IP.
 */
export type ForcedOverLimit = { status: 429 | 418; retryAfterS: number; ip?: string };

/** One request to Binance's endpoints as the sandbox answered it. */
export type LoggedRequest = {
  /** When it arrived (ms since the epoch). */
  time: number;
  ip: string;
  method: string;
  /** Without the query string. */
  path: string;
  status: number;
  /** The request weight it was charged (0 when refused with 429/418). */
  weight: number;
};

export type Refusal = {
  status: 429 | 418;
  retryAfterS: number;
  body: { code: number; msg: string };
};

/**
 * A request that reaches the venue this soon after its IP was answered 429 was sent before the
 * client could have read that answer (it was in flight): it gets 429 again, not a ban. Binance does
 * not publish its tolerance; one second is our model of "failing to back off".
 */
export const IN_FLIGHT_MS = 1000;

/** What the IP did wrong lately: what its next ban and the in-flight grace are reckoned from. */
type Offences = {
  /** When its last 429 was answered: requests arriving within IN_FLIGHT_MS of it were sent before it was read. */
  throttledAt: number;
  /** When each ban of the last day started (the next ban is longer for each). */
  bans: number[];
};

/*
 * What closes what (RateWindows' kinds, by IP): `ban` (418 for every request; also EVERY IP, forced),
 * `forced` (answer 429 as if the limit were hit; also EVERY IP), `retry` (a 429 told the IP to wait
 * until then: a request before that earns a ban) and `orders` (the same for new orders of an account
 * after its -1015, by `ip|account`; other requests may go on).
 */

const DAY_MS = 86_400_000;
const LOG_SIZE = 20_000;
const WEIGHT = 'REQUEST_WEIGHT';

const per = (pool: RatePool) => `${pool.interval.num} ${pool.interval.unit}`;

// Binance spot API docs, errors.md -1003 and -1015: the texts are Binance's, the %s filled in.
const messages = {
  weight: (pool: RatePool, limit: number) =>
    `Too much request weight used; current limit is ${limit} request weight per ${per(pool)}. Please use WebSocket Streams for live updates to avoid polling the API.`,
  // errors.md has no text for RAW_REQUESTS; ours, in the weight message's words.
  raw: (pool: RatePool, limit: number) =>
    `Too many requests; current limit is ${limit} requests per ${per(pool)}. Please use WebSocket Streams for live updates to avoid polling the API.`,
  orders: (pool: RatePool, limit: number) =>
    `Too many new orders; current limit is ${limit} orders per ${per(pool)}.`,
  banned: (until: number) =>
    `Way too much request weight used; IP banned until ${until}. Please use WebSocket Streams for live updates to avoid bans.`,
};

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export class RateLimits {
  private readonly windows: RateWindows;
  private readonly offences = new Map<string, Offences>();
  private log: LoggedRequest[] = [];

  constructor(limits: PoolLimits = {}, now: () => number = Date.now) {
    this.windows = new RateWindows(binance.pools, now);
    this.setLimits(limits);
  }

  /** The clock the limits are counted on. */
  private now(): number {
    return this.windows.now();
  }

  /** The pools with the limits in force (exchangeInfo.rateLimits renders them). */
  pools(): RatePool[] {
    return binance.pools.map((p) => ({ ...p, limit: this.windows.limitOf(p) }));
  }

  setLimits(limits: PoolLimits): PoolLimits {
    return this.windows.setLimits(limits);
  }

  currentLimits(): PoolLimits {
    return this.windows.currentLimits();
  }

  forceOverLimit({ status, retryAfterS, ip }: ForcedOverLimit): void {
    const until = this.now() + retryAfterS * 1000;
    if (ip !== undefined && status === 418) this.offencesOf(ip).bans.push(this.now());
    this.windows.close(status === 418 ? 'ban' : 'forced', ip ?? EVERY, until);
  }

  requestLog(since = 0): LoggedRequest[] {
    return this.log.filter((r) => r.time >= since);
  }

  /** Binance's limits again, no usage, no bans, an empty log. */
  reset(): void {
    this.windows.reset();
    this.offences.clear();
    this.log = [];
  }

  /**
   * Whether a request may go through: a refusal (429/418 with Retry-After and Binance's body), or
   * the request weight charged to the IP's pools. The ORDERS pools are the account's: see
   * `checkOrders` and `countOrder`.
   */
  admit(ip: string, request: RequestShape): { refusal: Refusal } | { weight: number } {
    const refusal = this.refusal(ip, request);
    return refusal ? { refusal } : { weight: binance.requestCost(request)[WEIGHT] ?? 0 };
  }

  private refusal(ip: string, request: RequestShape): Refusal | undefined {
    const now = this.now();
    const bannedUntil = this.windows.closedUntil('ban', ip);
    if (bannedUntil > now) return this.banned(bannedUntil, now);
    // rest-api.md#ip-limits: "failing to back off after receiving 429s will result in an automated
    // IP ban". How many requests Binance lets pass is unpublished; the sandbox bans on the first one
    // that cannot have been on its way already (arriving later than IN_FLIGHT_MS after the 429).
    const retryUntil = this.windows.closedUntil('retry', ip);
    if (retryUntil > now) {
      if (now - this.offencesOf(ip).throttledAt > IN_FLIGHT_MS) return this.ban(ip, now);
      return this.throttled(-1003, this.weightMessage(), retryUntil, now);
    }
    const forcedUntil = this.windows.closedUntil('forced', ip);
    if (forcedUntil > now) return this.tellToWait(ip, forcedUntil, now, this.weightMessage());
    const cost = binance.requestCost(request);
    const ipPools = binance.pools.filter((p) => p.scope === 'ip' && (cost[p.id] ?? 0) > 0);
    for (const pool of ipPools) {
      if (this.windows.fits(pool, ip, cost[pool.id]!, now)) continue;
      const text = pool.id === WEIGHT ? messages.weight : messages.raw;
      return this.tellToWait(
        ip,
        this.windows.refillAt(pool, now),
        now,
        text(pool, this.windows.limitOf(pool)),
      );
    }
    for (const pool of ipPools) this.windows.charge(pool, ip, cost[pool.id]!, now);
    return undefined;
  }

  /** A new order of `accountId` over one of its ORDERS pools: -1015 (the order is not placed). */
  checkOrders(ip: string, accountId: number): Refusal | undefined {
    const now = this.now();
    if (this.windows.closedUntil('orders', `${ip}|${accountId}`) > now) return this.ban(ip, now);
    for (const pool of this.accountPools()) {
      if (this.windows.fits(pool, `account:${accountId}`, 1, now)) continue;
      const end = this.windows.refillAt(pool, now);
      this.windows.close('orders', `${ip}|${accountId}`, end);
      return this.throttled(-1015, messages.orders(pool, this.windows.limitOf(pool)), end, now);
    }
    return undefined;
  }

  /** Counts a placed order (rest-api.md#unfilled-order-count: every successful order). */
  countOrder(accountId: number): void {
    const now = this.now();
    for (const pool of this.accountPools()) this.windows.charge(pool, `account:${accountId}`, 1, now);
  }

  /** The account's ORDERS pools with their limits and this window's count (GET /api/v3/rateLimit/order). */
  orderCounts(accountId: number): Array<{ pool: RatePool; count: number }> {
    const now = this.now();
    return this.accountPools().map((pool) => ({
      pool: { ...pool, limit: this.windows.limitOf(pool) },
      count: this.windows.used(pool, `account:${accountId}`, now),
    }));
  }

  /**
   * The usage headers: every IP pool that reports one (`X-MBX-USED-WEIGHT-1M`, plus the old
   * `X-MBX-USED-WEIGHT`), and with `accountId` the ORDERS pools (`X-MBX-ORDER-COUNT-10S`, `-1D`).
   */
  usageHeaders(ip: string, accountId?: number): Record<string, string> {
    const now = this.now();
    const headers: Record<string, string> = {};
    for (const pool of binance.pools) {
      if (!pool.usageHeader) continue;
      if (pool.scope === 'account' && accountId === undefined) continue;
      const key = pool.scope === 'ip' ? ip : `account:${accountId}`;
      headers[pool.usageHeader] = String(this.windows.used(pool, key, now));
      if (pool.id === WEIGHT) headers['x-mbx-used-weight'] = headers[pool.usageHeader]!;
    }
    return headers;
  }

  record(entry: LoggedRequest): void {
    this.log.push(entry);
    if (this.log.length > LOG_SIZE) this.log.splice(0, this.log.length - LOG_SIZE);
  }

  private accountPools() {
    return binance.pools.filter((p) => p.scope === 'account');
  }

  private offencesOf(ip: string): Offences {
    let offences = this.offences.get(ip);
    if (!offences) {
      offences = { throttledAt: 0, bans: [] };
      this.offences.set(ip, offences);
    }
    return offences;
  }

  private weightMessage(): string {
    const pool = binance.pools.find((p) => p.id === WEIGHT)!;
    return messages.weight(pool, this.windows.limitOf(pool));
  }

  /** A 429 that tells the IP to wait until `until`: a request sent before then (not in flight) earns a ban. */
  private tellToWait(ip: string, until: number, now: number, msg: string): Refusal {
    this.windows.close('retry', ip, until);
    this.offencesOf(ip).throttledAt = now;
    return this.throttled(-1003, msg, until, now);
  }

  /**
   * Bans an IP that sent inside a Retry-After: 2 minutes, doubled for each earlier ban of the
   * last day, at most 3 days (binance.overLimit; Binance publishes the range, not the steps).
   */
  private ban(ip: string, now: number): Refusal {
    const offences = this.offencesOf(ip);
    offences.bans = offences.bans.filter((t) => t > now - DAY_MS);
    const { firstBanMs, maxBanMs } = binance.overLimit;
    const until = now + Math.min(firstBanMs * 2 ** offences.bans.length, maxBanMs);
    offences.bans.push(now);
    this.windows.close('ban', ip, until);
    this.windows.open('retry', ip);
    this.windows.openAll('orders', `${ip}|`);
    return this.banned(until, now);
  }

  private banned(until: number, now: number): Refusal {
    return {
      status: binance.overLimit.bannedStatus as 418,
      retryAfterS: seconds(until - now),
      body: { code: -1003, msg: messages.banned(until) },
    };
  }

  private throttled(code: number, msg: string, until: number, now: number): Refusal {
    return {
      status: binance.overLimit.throttledStatus as 429,
      retryAfterS: seconds(until - now),
      body: { code, msg },
    };
  }
}
