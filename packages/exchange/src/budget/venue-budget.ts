/**
 * One request budget per venue and egress IP, shared by every process that leaves through that IP
 * (docs/grid.md#request-budget). Binance counts request weight per IP, not per API key
 * (docs/venues/binance.md#rate-limits); Bybit counts every call per IP and each private endpoint
 * per account, OKX each endpoint per account or IP (docs/venues/bybit.md#rate-limits,
 * docs/venues/okx.md#rate-limits): every client of an installation reserves here before a
 * request is signed and sent, in every pool its venue's table says the request costs. The store is Redis in distributed
 * mode (packages/services redis-venue-budget.ts) and memory in the embedded process
 * (memory-budget.ts); both follow the rules written here.
 */

/** cancels and take profits first, then buys and a reconcile's reads, then scans and sweeps. */
export type RequestPriority = 'high' | 'normal' | 'low';

/**
 * The share of a pool's limit each priority may fill: low-priority work stops at 60 % and ordinary
 * work at 85 %, so the last 15 % of every window is kept for cancels and take profits.
 */
export const PRIORITY_SHARE: Readonly<Record<RequestPriority, number>> = { low: 0.6, normal: 0.85, high: 1 };

/** Past this share of an IP pool, the operators are told (once per hour and IP). */
export const ALERT_SHARE = 0.8;

/**
 * The venues count in fixed windows that start on the clock (Binance's minute of weight resets at
 * :00, docs/venues/binance.md#rate-limits; OKX's 2-s and Bybit's 1-s and 5-s windows likewise in the
 * sandbox, docs/venues/okx.md#rate-limits, docs/venues/bybit.md#rate-limits). Our windows are the
 * venue's on our clock; a request sent in the first second of one (a tenth of a shorter window) may
 * still be counted in the one before by a venue whose clock is behind ours, so it is charged in both
 * (windowsOf): a clock up to that far ahead never spends a new window's budget while the venue still
 * counts the old one, and one in step never finds the new window holding more than we counted.
 */
export const WINDOW_GRACE_MS = 1000;

/** The grace of a window: a second, at most a tenth of the window. */
export const graceOf = (windowMs: number) => Math.min(WINDOW_GRACE_MS, Math.floor(windowMs / 10));

/**
 * A rolling window (RatePool.rolling: the venue counts the last `windowMs` at every moment) is
 * counted in staggered fixed windows, one starting every `windowMs / ROLLING_SLOTS` and each
 * ROLLING_SLOTS + 1 slots long: whichever instant a rolling window starts at, one staggered window
 * holds it whole, so no rolling window holds more than any staggered one (the limit). The price is
 * a slot's worth of the budget (a fifth). A rolling window knows no clock: no grace.
 */
export const ROLLING_SLOTS = 4;

const slotOf = (windowMs: number) => windowMs / ROLLING_SLOTS;

/** The window `now` falls in on our clock (rolling: the latest staggered window that holds `now`). */
export const windowIndex = (windowMs: number, now: number, rolling?: boolean) =>
  Math.floor(now / (rolling ? slotOf(windowMs) : windowMs));

/** When a request stops counting in window `index`: its end and the grace after it. */
export const endOfWindow = (windowMs: number, index: number, rolling?: boolean) =>
  rolling
    ? Math.ceil((index + ROLLING_SLOTS + 1) * slotOf(windowMs))
    : (index + 1) * windowMs + graceOf(windowMs);

/** When the window `now` falls in ends (the next one's budget is fresh, its grace past). */
export const windowEnd = (windowMs: number, now: number, rolling?: boolean) =>
  endOfWindow(windowMs, windowIndex(windowMs, now, rolling), rolling);

/**
 * The windows a request sent at `now` is charged in (oldest first; the last is the current one):
 * the one `now` falls in, and in its grace the one before it too; for a rolling window, every
 * staggered window that holds `now` (ROLLING_SLOTS + 1 of them).
 */
export const windowsOf = (windowMs: number, now: number, rolling?: boolean): number[] => {
  const index = windowIndex(windowMs, now, rolling);
  if (rolling) return Array.from({ length: ROLLING_SLOTS + 1 }, (_, i) => index - ROLLING_SLOTS + i);
  return now - index * windowMs < graceOf(windowMs) ? [index - 1, index] : [index];
};

/** One pool a request is charged in: `key` names the pool and its owner (`<venue>:<pool>:ip:<ip>`). */
export type PoolCharge = {
  pool: string;
  key: string;
  units: number;
  limit: number;
  windowMs: number;
  /** The venue's window rolls (RatePool.rolling): counted in staggered windows (windowsOf). */
  rolling?: boolean | undefined;
};

export type Reservation = {
  charges: PoolCharge[];
  /** Closure keys to honour (the IP's, and the account's for signed requests). */
  closedKeys: string[];
  /** The share of each limit this request may fill (PRIORITY_SHARE). */
  share: number;
  now: number;
};

export type ReserveAnswer =
  | { ok: true; used: number[]; crossed: boolean[] }
  | { ok: false; reason: 'closed'; resumeAt: number; key: string }
  | { ok: false; reason: 'full'; resumeAt: number; key: string };

/** Where budgets live: Redis (shared by every process) or memory (one process). */
export type BudgetStore = {
  /** Takes the request's units in every pool at once, or none: closed, or a pool is full for this share. */
  reserve(reservation: Reservation): Promise<ReserveAnswer>;
  /**
   * The venue's own count of a pool (a usage header): ours is raised to it when it is higher, as
   * other software on the IP or requests we did not count spend the same budget.
   */
  observe(usage: {
    key: string;
    used: number;
    limit: number;
    windowMs: number;
    rolling?: boolean | undefined;
    now: number;
  }): Promise<{ crossed: boolean }>;
  /** Nothing is sent under `key` before `until`; `started`: it was open before this call. */
  close(closure: { key: string; until: number; now: number }): Promise<{ started: boolean; until: number }>;
};

/** What the budget reports, for metrics and the operators' alerts (packages/services wires them). */
export type BudgetEvent =
  | { kind: 'usage'; venue: string; ip: string; pool: string; used: number; limit: number }
  | { kind: 'near-limit'; venue: string; ip: string; pool: string; used: number; limit: number }
  | { kind: 'waited'; venue: string; priority: RequestPriority; ms: number }
  | {
      kind: 'refused';
      venue: string;
      priority: RequestPriority;
      reason: 'closed' | 'full';
      resumeAt: number;
    }
  | { kind: 'over-limit'; venue: string; ip: string; status: number; exchangeCode?: string }
  | {
      kind: 'closed';
      venue: string;
      ip: string;
      scope: 'ip' | 'account';
      status: number;
      until: number;
      started: boolean;
      /** The one pool closed (Bybit's 10006, OKX's 50011), not the whole IP or account. */
      pool?: string;
    }
  | { kind: 'store-failed'; venue: string; error: unknown };

/**
 * This process's side of the budget: the store, its egress IP, and what it already knows to be
 * closed (so a closure it learnt from one answer stops its other requests without a round trip).
 */
export type VenueBudget = {
  store: BudgetStore;
  /** The public IP this process's requests leave from (EGRESS_IP): the owner of the IP pools. */
  ip: string;
  /** A request waits at most this long for room in its window; a longer wait travels with the error. */
  maxWaitMs: number;
  /** Limits other than the venue's table, by pool id (tests, benchmarks, a venue that lowered them). */
  limits: Readonly<Record<string, number>>;
  onEvent: (event: BudgetEvent) => void;
  /** Closure key → until (epoch ms), as far as this process knows. */
  closed: Map<string, number>;
  /**
   * Pool key → the limit the venue says it applies (Bybit's X-Bapi-Limit: an account's limits may
   * have been raised, or lowered in the sandbox), as this process last read it.
   */
  venueLimits?: Map<string, number>;
};

export const createVenueBudget = (options: {
  store: BudgetStore;
  ip?: string;
  maxWaitMs?: number;
  limits?: Record<string, number>;
  onEvent?: (event: BudgetEvent) => void;
}): VenueBudget => ({
  store: options.store,
  ip: options.ip ?? 'default',
  maxWaitMs: options.maxWaitMs ?? 2000,
  limits: options.limits ?? {},
  onEvent: options.onEvent ?? (() => undefined),
  closed: new Map(),
  venueLimits: new Map(),
});
