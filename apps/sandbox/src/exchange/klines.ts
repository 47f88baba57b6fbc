import type { Decimal } from 'decimal.js';
import type { CandlePast, PastBucket } from './candle-past';
import { Dec, fmt8, ZERO } from './money';
import { refuse } from './refusal';

/** One saved minute of history (decimal strings). */
export type SavedMinute = {
  openTime: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  trades: number;
};

type Bucket = PastBucket;

const MINUTE = 60_000;
const INTERVALS: Record<string, number> = {
  '1m': MINUTE,
  '3m': 3 * MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': 60 * MINUTE,
  '2h': 120 * MINUTE,
  '4h': 240 * MINUTE,
  '6h': 360 * MINUTE,
  '8h': 480 * MINUTE,
  '12h': 720 * MINUTE,
  '1d': 1440 * MINUTE,
};

/** Keeps this many one-minute candles per market: a day, enough for charts and tests. */
const KEEP = 1440;
/**
 * And this many one-second candles: ten minutes, what a price scan reads (`interval=1s`,
 * docs/grid.md#triggers). They are not saved: a restarted sandbox serves them from its restart on.
 */
const KEEP_SECONDS = 600;
const SECOND = 1000;

/** Adds a price to the bucket of `openTime` at the end of `buckets`, or opens that bucket. */
const addTo = (
  buckets: Bucket[],
  keep: number,
  openTime: number,
  price: Decimal,
  volume: Decimal,
  trades: number,
) => {
  const last = buckets.at(-1);
  if (last && last.openTime === openTime) {
    last.high = last.high.gt(price) ? last.high : price;
    last.low = last.low.lt(price) ? last.low : price;
    last.close = price;
    last.volume = last.volume.add(volume);
    last.trades += trades;
    return;
  }
  buckets.push({ openTime, open: price, high: price, low: price, close: price, volume, trades });
  if (buckets.length > keep) buckets.shift();
};

/**
 * The sandbox's own price history (wall-clock one-minute and one-second candles), served as Binance
 * klines, preceded by the market's past when it replays candles (candle-past.ts).
 */
/**
 * One kline as Binance's GET /api/v3/klines sends it: open time, open, high, low, close, volume,
 * close time, quote volume, trades, taker buy base and quote volume, ignore. The other dialects
 * reshape these rows into their own.
 */
export type KlineRow = [
  number,
  string,
  string,
  string,
  string,
  string,
  number,
  string,
  number,
  string,
  string,
  string,
];

export class KlineHistory {
  private readonly minutes: Bucket[] = [];
  private readonly seconds: Bucket[] = [];
  /** Klines before the sandbox started the market (replayed markets only; not for `1s`). */
  past: CandlePast | undefined;

  record(price: Decimal, volume: Decimal = ZERO, trades = 0, now = Date.now()): void {
    addTo(this.minutes, KEEP, now - (now % MINUTE), price, volume, trades);
    addTo(this.seconds, KEEP_SECONDS, now - (now % SECOND), price, volume, trades);
  }

  save(): SavedMinute[] {
    return this.minutes.map((m) => ({
      openTime: m.openTime,
      open: m.open.toFixed(),
      high: m.high.toFixed(),
      low: m.low.toFixed(),
      close: m.close.toFixed(),
      volume: m.volume.toFixed(),
      trades: m.trades,
    }));
  }

  /** Replaces the history with a saved one (a restarted sandbox keeps its chart). */
  load(minutes: SavedMinute[]): void {
    this.minutes.length = 0;
    for (const m of minutes.slice(-KEEP)) {
      this.minutes.push({
        openTime: m.openTime,
        open: new Dec(m.open),
        high: new Dec(m.high),
        low: new Dec(m.low),
        close: new Dec(m.close),
        volume: new Dec(m.volume),
        trades: m.trades,
      });
    }
  }

  /** GET /api/v3/klines rows: [openTime, o, h, l, c, volume, closeTime, quoteVolume, trades, …]. */
  klines(interval: string, options: { startTime?: number; endTime?: number; limit: number }): KlineRow[] {
    const size = interval === '1s' ? SECOND : INTERVALS[interval];
    if (size === undefined) throw refuse({ kind: 'badInterval' });
    const merged: Bucket[] = [];
    for (const m of size === SECOND ? this.seconds : this.minutes) {
      const openTime = m.openTime - (m.openTime % size);
      const last = merged.at(-1);
      if (last && last.openTime === openTime) {
        last.high = last.high.gt(m.high) ? last.high : m.high;
        last.low = last.low.lt(m.low) ? last.low : m.low;
        last.close = m.close;
        last.volume = last.volume.add(m.volume);
        last.trades += m.trades;
      } else {
        merged.push({ ...m, openTime });
      }
    }
    const inRange = merged.filter(
      (b) =>
        (options.startTime === undefined || b.openTime >= options.startTime) &&
        (options.endTime === undefined || b.openTime <= options.endTime),
    );
    const picked = this.withPast(size, inRange, merged[0]?.openTime, options);
    return picked.map(
      (b): KlineRow => [
        b.openTime,
        fmt8(b.open),
        fmt8(b.high),
        fmt8(b.low),
        fmt8(b.close),
        fmt8(b.volume),
        b.openTime + size - 1,
        fmt8(b.volume.mul(b.close)),
        b.trades,
        '0.00000000',
        '0.00000000',
        '0',
      ],
    );
  }

  /** The past's buckets before the own history's first one, joined to the own ones in range. */
  private withPast(
    size: number,
    own: Bucket[],
    ownStart: number | undefined,
    options: { startTime?: number; endTime?: number; limit: number },
  ): Bucket[] {
    const { startTime, endTime, limit } = options;
    const newest = startTime === undefined;
    const need = newest ? limit - own.length : limit;
    if (!this.past || size === SECOND || need <= 0) return newest ? own.slice(-limit) : own.slice(0, limit);
    const to = Math.min(endTime ?? Number.MAX_SAFE_INTEGER, (ownStart ?? this.past.end) - 1);
    const past = this.past.buckets(size, { from: startTime, to, limit: need, newest });
    const all = [...past, ...own];
    return newest ? all.slice(-limit) : all.slice(0, limit);
  }

  /** The last 24 hours, for GET /api/v3/ticker/24hr. */
  window24h(now = Date.now()) {
    const since = now - 1440 * MINUTE;
    const own = this.minutes.filter((m) => m.openTime >= since);
    // A market started less than a day ago: the day begins in its past.
    const ownStart = own[0]?.openTime ?? now;
    const past =
      this.past && ownStart > since
        ? this.past.buckets(MINUTE, { from: since, to: ownStart - 1, limit: 1440, newest: false })
        : [];
    const recent = [...past, ...own];
    const first = recent[0];
    if (!first) return undefined;
    let high = first.high;
    let low = first.low;
    let volume = ZERO;
    let trades = 0;
    for (const m of recent) {
      high = high.gt(m.high) ? high : m.high;
      low = low.lt(m.low) ? low : m.low;
      volume = volume.add(m.volume);
      trades += m.trades;
    }
    return { openTime: first.openTime, open: first.open, high, low, volume, trades };
  }
}
