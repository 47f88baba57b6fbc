import { binance, type RatePool, type RequestShape } from '@gridbot/venues';

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

type IpState = {
  /** A 429 told this IP to wait until then; a request before that earns a ban. */
  retryUntil: number;
  /** When that 429 was answered: requests arriving within IN_FLIGHT_MS of it were sent before it was read. */
  throttledAt: number;
  /** Forced through the control API: answer 429 until then, as if the limit were hit. */
  throttledUntil: number;
  /** The same for new orders of an account after its -1015 (by account id; other requests may go on). */
  ordersRetryUntil: Map<number, number>;
  bannedUntil: number;
  /** When each ban of the last day started (the next ban is longer for each). */
  bans: number[];
};

type Counter = { window: number; used: number };

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
  private limits = new Map<string, number>();
  private readonly counters = new Map<string, Counter>();
  private readonly ips = new Map<string, IpState>();
  /** Forced for every IP: throttled (429) or banned (418) until then. */
  private everyone = { throttledUntil: 0, bannedUntil: 0 };
  private log: LoggedRequest[] = [];

  constructor(
    limits: PoolLimits = {},
    private readonly now: () => number = Date.now,
  ) {
    this.reset();
    this.setLimits(limits);
  }

  /** The pools with the limits in force (exchangeInfo.rateLimits renders them). */
  pools(): RatePool[] {
    return binance.pools.map((p) => ({ ...p, limit: this.limitOf(p) }));
  }

  setLimits(limits: PoolLimits): PoolLimits {
    for (const [id, limit] of Object.entries(limits)) {
      if (!binance.pools.some((p) => p.id === id)) throw new Error(`unknown pool ${id}`);
      if (!Number.isInteger(limit) || limit < 1)
        throw new Error(`${id}: the limit must be a positive integer`);
      this.limits.set(id, limit);
    }
    return this.currentLimits();
  }

  currentLimits(): PoolLimits {
    return Object.fromEntries(binance.pools.map((p) => [p.id, this.limitOf(p)]));
  }

  forceOverLimit({ status, retryAfterS, ip }: ForcedOverLimit): void {
    const until = this.now() + retryAfterS * 1000;
    if (ip === undefined) {
      if (status === 418) this.everyone.bannedUntil = until;
      else this.everyone.throttledUntil = until;
      return;
    }
    const state = this.ip(ip);
    if (status === 418) {
      state.bans.push(this.now());
      state.bannedUntil = until;
    } else {
      state.throttledUntil = until;
    }
  }

  requestLog(since = 0): LoggedRequest[] {
    return this.log.filter((r) => r.time >= since);
  }

  /** Binance's limits again, no usage, no bans, an empty log. */
  reset(): void {
    this.limits = new Map(binance.pools.map((p) => [p.id, p.limit]));
    this.counters.clear();
    this.ips.clear();
    this.everyone = { throttledUntil: 0, bannedUntil: 0 };
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
    const state = this.ip(ip);
    const bannedUntil = Math.max(state.bannedUntil, this.everyone.bannedUntil);
    if (bannedUntil > now) return this.banned(bannedUntil, now);
    // rest-api.md#ip-limits: "failing to back off after receiving 429s will result in an automated
    // IP ban". How many requests Binance lets pass is unpublished; the sandbox bans on the first one
    // that cannot have been on its way already (arriving later than IN_FLIGHT_MS after the 429).
    if (state.retryUntil > now) {
      if (now - state.throttledAt > IN_FLIGHT_MS) return this.ban(state, now);
      const pool = binance.pools.find((p) => p.id === WEIGHT)!;
      return this.throttled(-1003, messages.weight(pool, this.limitOf(pool)), state.retryUntil, now);
    }
    const forcedUntil = Math.max(state.throttledUntil, this.everyone.throttledUntil);
    if (forcedUntil > now) {
      state.retryUntil = forcedUntil;
      state.throttledAt = now;
      const pool = binance.pools.find((p) => p.id === WEIGHT)!;
      return this.throttled(-1003, messages.weight(pool, this.limitOf(pool)), forcedUntil, now);
    }
    const cost = binance.requestCost(request);
    const ipPools = binance.pools.filter((p) => p.scope === 'ip' && (cost[p.id] ?? 0) > 0);
    for (const pool of ipPools) {
      const counter = this.counter(pool, ip, now);
      if (counter.used + cost[pool.id]! <= this.limitOf(pool)) continue;
      const end = counter.window + pool.windowMs;
      state.retryUntil = end;
      state.throttledAt = now;
      const text = pool.id === WEIGHT ? messages.weight : messages.raw;
      return this.throttled(-1003, text(pool, this.limitOf(pool)), end, now);
    }
    for (const pool of ipPools) this.counter(pool, ip, now).used += cost[pool.id]!;
    return undefined;
  }

  /** A new order of `accountId` over one of its ORDERS pools: -1015 (the order is not placed). */
  checkOrders(ip: string, accountId: number): Refusal | undefined {
    const now = this.now();
    const state = this.ip(ip);
    if ((state.ordersRetryUntil.get(accountId) ?? 0) > now) return this.ban(state, now);
    for (const pool of this.accountPools()) {
      const counter = this.counter(pool, `account:${accountId}`, now);
      if (counter.used < this.limitOf(pool)) continue;
      const end = counter.window + pool.windowMs;
      state.ordersRetryUntil.set(accountId, end);
      return this.throttled(-1015, messages.orders(pool, this.limitOf(pool)), end, now);
    }
    return undefined;
  }

  /** Counts a placed order (rest-api.md#unfilled-order-count: every successful order). */
  countOrder(accountId: number): void {
    const now = this.now();
    for (const pool of this.accountPools()) this.counter(pool, `account:${accountId}`, now).used += 1;
  }

  /** The account's ORDERS pools with their limits and this window's count (GET /api/v3/rateLimit/order). */
  orderCounts(accountId: number): Array<{ pool: RatePool; count: number }> {
    const now = this.now();
    return this.accountPools().map((pool) => ({
      pool: { ...pool, limit: this.limitOf(pool) },
      count: this.counter(pool, `account:${accountId}`, now).used,
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
      headers[pool.usageHeader] = String(this.counter(pool, key, now).used);
      if (pool.id === WEIGHT) headers['x-mbx-used-weight'] = headers[pool.usageHeader]!;
    }
    return headers;
  }

  record(entry: LoggedRequest): void {
    this.log.push(entry);
    if (this.log.length > LOG_SIZE) this.log.splice(0, this.log.length - LOG_SIZE);
  }

  private limitOf(pool: RatePool): number {
    return this.limits.get(pool.id) ?? pool.limit;
  }

  private accountPools() {
    return binance.pools.filter((p) => p.scope === 'account');
  }

  /** The pool's counter for `key` in the current fixed window (a new window starts from zero). */
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

  private ip(ip: string): IpState {
    let state = this.ips.get(ip);
    if (!state) {
      state = {
        retryUntil: 0,
        throttledAt: 0,
        throttledUntil: 0,
        ordersRetryUntil: new Map(),
        bannedUntil: 0,
        bans: [],
      };
      this.ips.set(ip, state);
    }
    return state;
  }

  /**
   * Bans an IP that sent inside a Retry-After: 2 minutes, doubled for each earlier ban of the
   * last day, at most 3 days (binance.overLimit; Binance publishes the range, not the steps).
   */
  private ban(state: IpState, now: number): Refusal {
    state.bans = state.bans.filter((t) => t > now - DAY_MS);
    const { firstBanMs, maxBanMs } = binance.overLimit;
    const length = Math.min(firstBanMs * 2 ** state.bans.length, maxBanMs);
    state.bans.push(now);
    state.bannedUntil = now + length;
    state.retryUntil = 0;
    state.ordersRetryUntil.clear();
    return this.banned(state.bannedUntil, now);
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
