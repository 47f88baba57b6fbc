import type { RatePool } from '@gridbot/venues';
import type { FastifyRequest } from 'fastify';

/**
 * The mechanics the sandbox's three dialects share in enforcing their venue's rate limits
 * (rate-limits.ts for Binance, bybit/bybit-rate-limits.ts, okx/okx-rate-limits.ts): every pool of the
 * venue's table counts per key (an IP, an account) in fixed windows of its `windowMs` — or, for a
 * pool the venue counts in a rolling window (`rolling`, Bybit's), over the last `windowMs` at every
 * moment, from a log of its requests — its limit
 * lowered or raised through the control API; a key may be closed until a time (a ban, a
 * Retry-After); all on the clock the dialect reads. What a venue answers over a limit, the headers
 * it reports and what closes what stay in its dialect's file.
 */

/** The subject that closes every subject of its kind at once (a ban of every IP). */
export const EVERY = '*';

type Counter = { window: number; used: number };
type Entry = { at: number; units: number };

export class RateWindows {
  private readonly limits = new Map<string, number>();
  private readonly counters = new Map<string, Counter>();
  /** A rolling pool's requests of the last window, oldest first, per `<pool>|<key>`. */
  private readonly logs = new Map<string, Entry[]>();
  private readonly closed = new Map<string, number>();

  /** `venue` names the pools in the error for an unknown one (`unknown Bybit pool X`), if at all. */
  constructor(
    private readonly pools: readonly RatePool[],
    readonly now: () => number,
    private readonly venue?: string,
  ) {}

  /** Lowers (or raises) pools by id; returns every pool's limit in force. */
  setLimits(limits: Readonly<Record<string, number>>): Record<string, number> {
    for (const [id, limit] of Object.entries(limits)) {
      if (!this.pools.some((p) => p.id === id))
        throw new Error(`unknown ${this.venue ? `${this.venue} ` : ''}pool ${id}`);
      if (!Number.isInteger(limit) || limit < 1)
        throw new Error(`${id}: the limit must be a positive integer`);
      this.limits.set(id, limit);
    }
    return this.currentLimits();
  }

  currentLimits(): Record<string, number> {
    return Object.fromEntries(this.pools.map((p) => [p.id, this.limitOf(p)]));
  }

  limitOf(pool: RatePool): number {
    return this.limits.get(pool.id) ?? pool.limit;
  }

  /**
   * The units `key` has used of `pool` in the window `now` falls in (a new window starts from zero),
   * or, rolling, in the last `windowMs`.
   */
  used(pool: RatePool, key: string, now: number): number {
    if (pool.rolling) return this.log(pool, key, now).reduce((sum, entry) => sum + entry.units, 0);
    return this.counter(pool, key, now).used;
  }

  /** Whether `units` more fit in `key`'s current window of `pool`. */
  fits(pool: RatePool, key: string, units: number, now: number): boolean {
    return this.used(pool, key, now) + units <= this.limitOf(pool);
  }

  /** Counts `units` against `key`'s current window of `pool`; returns the units used now. */
  charge(pool: RatePool, key: string, units: number, now: number): number {
    if (pool.rolling) {
      this.log(pool, key, now).push({ at: now, units });
      return this.used(pool, key, now);
    }
    const counter = this.counter(pool, key, now);
    counter.used += units;
    return counter.used;
  }

  /**
   * When the window `now` falls in ends: the pool is full again; rolling, when `key`'s oldest
   * request of the last window leaves it (room for at least that much again).
   */
  refillAt(pool: RatePool, now: number, key?: string): number {
    if (pool.rolling) {
      const oldest = key === undefined ? undefined : this.log(pool, key, now)[0];
      return (oldest?.at ?? now) + pool.windowMs;
    }
    return this.windowOf(pool, now) + pool.windowMs;
  }

  /** Closes `subject` of a kind (e.g. `ban`, an IP) until `until`; the last word counts, a shorter one too. */
  close(kind: string, subject: string, until: number): void {
    this.closed.set(`${kind}|${subject}`, until);
  }

  /** Until when `subject` is closed, by itself or with every subject of its kind (0: open). */
  closedUntil(kind: string, subject: string): number {
    return Math.max(this.closed.get(`${kind}|${subject}`) ?? 0, this.closed.get(`${kind}|${EVERY}`) ?? 0);
  }

  /** Opens `subject` of a kind again. */
  open(kind: string, subject: string): void {
    this.closed.delete(`${kind}|${subject}`);
  }

  /** Opens every subject of a kind that starts with `prefix`. */
  openAll(kind: string, prefix: string): void {
    for (const key of [...this.closed.keys()])
      if (key.startsWith(`${kind}|${prefix}`)) this.closed.delete(key);
  }

  /** The venue's limits again; no usage, nothing closed. */
  reset(): void {
    this.limits.clear();
    this.counters.clear();
    this.logs.clear();
    this.closed.clear();
  }

  private windowOf(pool: RatePool, now: number): number {
    return Math.floor(now / pool.windowMs) * pool.windowMs;
  }

  /** `key`'s requests to a rolling `pool` in (now − windowMs, now], the older ones dropped. */
  private log(pool: RatePool, key: string, now: number): Entry[] {
    const id = `${pool.id}|${key}`;
    let entries = this.logs.get(id);
    if (!entries) {
      entries = [];
      this.logs.set(id, entries);
    }
    while (entries.length > 0 && entries[0]!.at <= now - pool.windowMs) entries.shift();
    return entries;
  }

  private counter(pool: RatePool, key: string, now: number): Counter {
    const window = this.windowOf(pool, now);
    const id = `${pool.id}|${key}`;
    let counter = this.counters.get(id);
    if (!counter || counter.window !== window) {
      counter = { window, used: 0 };
      this.counters.set(id, counter);
    }
    return counter;
  }
}

/** A request's path, without the query string. */
export const pathOf = (request: FastifyRequest): string => request.url.split('?')[0] ?? '';

/** A request's query string as parameters. */
export const queryOf = (request: FastifyRequest): URLSearchParams => {
  const url = request.url;
  return new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
};

/** A request header's (first) value: the API key a limit is counted by. */
export const headerOf = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};
