import type { Decimal } from 'decimal.js';
import { Dec } from './money';
import type { Candle } from './price-feed';

/** How far back a replayed market's klines reach before the sandbox started it. */
export const PAST_DAYS = 400;
const DAY = 86_400_000;

/** One past candle (or a bucket of them), prices already at the market's level. */
export type PastBucket = {
  openTime: number;
  open: Decimal;
  high: Decimal;
  low: Decimal;
  close: Decimal;
  volume: Decimal;
  trades: number;
};

/** The file's candle interval: the most common gap between two candles (files skip quiet minutes). */
const resolutionOf = (candles: Candle[]): number => {
  const counts = new Map<number, number>();
  for (let i = 1; i < candles.length; i++) {
    const gap = candles[i]!.time - candles[i - 1]!.time;
    if (gap > 0) counts.set(gap, (counts.get(gap) ?? 0) + 1);
  }
  let best = 60_000;
  let seen = 0;
  for (const [gap, count] of counts) if (count > seen) [best, seen] = [gap, count];
  return best;
};

/** The first multiple of `step` at or after `time`. */
const ceilTo = (time: number, step: number) => time + ((step - (time % step)) % step);

const max = (a: Decimal, b: Decimal) => (a.gt(b) ? a : b);
const min = (a: Decimal, b: Decimal) => (a.lt(b) ? a : b);

/**
 * The history of a replayed market before the sandbox started it (docs/decisions.md, sandbox
 * past), so that clients reading klines, and the demo's first start, find weeks of real-looking
 * prices instead of an empty chart. It is the same recorded series, laid out backwards from
 * `end`: the candle just before `end` is the first candle played time-reversed (it closes at the
 * feed's first price), then the series time-reversed to its last candle, then forwards again, and
 * so on. Reversed and forward copies meet at the same price, so the past is continuous and stays
 * at the level of the file instead of drifting with every copy. Candles follow each other without
 * the file's gaps, one per `resolution`.
 */
export class CandlePast {
  readonly resolution: number;
  /** Where the past ends: the open time of the live feed's first minute. */
  readonly end: number;
  /** First past candle's open time. */
  readonly start: number;
  private readonly open: Decimal[];
  private readonly high: Decimal[];
  private readonly low: Decimal[];
  private readonly close: Decimal[];
  private readonly volume: Decimal[];

  constructor(
    candles: Candle[],
    scale: Decimal,
    /** Where the past ends (the live feed's first step), aligned down to the resolution. */
    end: number,
    days = PAST_DAYS,
  ) {
    this.resolution = resolutionOf(candles);
    this.end = end - (end % this.resolution);
    this.start = this.end - Math.floor((days * DAY) / this.resolution) * this.resolution;
    this.open = candles.map((c) => new Dec(c.open).mul(scale));
    this.high = candles.map((c) => new Dec(c.high).mul(scale));
    this.low = candles.map((c) => new Dec(c.low).mul(scale));
    this.close = candles.map((c) => new Dec(c.close).mul(scale));
    this.volume = candles.map((c) => new Dec(c.volume || '0'));
  }

  /** The past candle opening at `openTime` (a multiple of the resolution in [start, end)). */
  candleAt(openTime: number): PastBucket {
    const n = this.open.length;
    const k = (this.end - openTime) / this.resolution - 1;
    const copy = Math.floor(k / n);
    const j = k % n;
    const reversed = copy % 2 === 0;
    const i = reversed ? j : n - 1 - j;
    return {
      openTime,
      open: reversed ? this.close[i]! : this.open[i]!,
      high: this.high[i]!,
      low: this.low[i]!,
      close: reversed ? this.open[i]! : this.close[i]!,
      volume: this.volume[i]!,
      trades: 1,
    };
  }

  /** Every past candle from `from` (inclusive) to the end, oldest first. */
  candlesSince(from: number): PastBucket[] {
    const first = Math.max(this.start, ceilTo(from, this.resolution));
    const out: PastBucket[] = [];
    for (let t = first; t < this.end; t += this.resolution) out.push(this.candleAt(t));
    return out;
  }

  /** The bucket of `size` ms opening at `openTime`, or undefined when the past has none of it. */
  bucket(size: number, openTime: number): PastBucket | undefined {
    if (openTime + size <= this.start || openTime >= this.end) return undefined;
    if (size < this.resolution) return this.piece(size, openTime);
    let bucket: PastBucket | undefined;
    const first = Math.max(this.start, ceilTo(openTime, this.resolution));
    for (let t = first; t < openTime + size && t < this.end; t += this.resolution) {
      const c = this.candleAt(t);
      if (!bucket) bucket = { ...c, openTime };
      else {
        bucket.high = max(bucket.high, c.high);
        bucket.low = min(bucket.low, c.low);
        bucket.close = c.close;
        bucket.volume = bucket.volume.add(c.volume);
        bucket.trades += 1;
      }
    }
    return bucket;
  }

  /**
   * A slice of a coarser candle (1m of a 5m series): the candle's path O→L→H→C (rising) or
   * O→H→L→C (falling), as the live feed plays it, cut into equal parts along its three legs.
   */
  private piece(size: number, openTime: number): PastBucket {
    const candleTime = openTime - (openTime % this.resolution);
    const c = this.candleAt(candleTime);
    const path = c.close.gte(c.open) ? [c.open, c.low, c.high, c.close] : [c.open, c.high, c.low, c.close];
    const parts = this.resolution / size;
    const part = (openTime - candleTime) / size;
    const at = (t: Decimal): Decimal => {
      const leg = Math.min(2, t.floor().toNumber());
      return path[leg]!.add(path[leg + 1]!.sub(path[leg]!).mul(t.sub(leg)));
    };
    const t0 = new Dec(3 * part).div(parts);
    const t1 = new Dec(3 * (part + 1)).div(parts);
    const open = at(t0);
    const close = at(t1);
    let high = max(open, close);
    let low = min(open, close);
    for (let v = 1; v <= 2; v++) {
      if (t0.lt(v) && t1.gt(v)) {
        high = max(high, path[v]!);
        low = min(low, path[v]!);
      }
    }
    return { openTime, open, high, low, close, volume: c.volume.div(parts), trades: 1 };
  }

  /**
   * Buckets of `size` ms opening in [from, to], oldest first: the first `limit` of them, or with
   * `newest` the last `limit`.
   */
  buckets(size: number, range: { from?: number; to: number; limit: number; newest: boolean }): PastBucket[] {
    const lowest = this.start - (this.start % size);
    const from = Math.max(lowest, range.from === undefined ? lowest : ceilTo(range.from, size));
    const to = Math.min(range.to, this.end - 1);
    const last = to - (to % size);
    const out: PastBucket[] = [];
    if (range.newest) {
      for (let t = last; t >= from && out.length < range.limit; t -= size) {
        const b = this.bucket(size, t);
        if (b) out.push(b);
      }
      return out.reverse();
    }
    for (let t = from; t <= last && out.length < range.limit; t += size) {
      const b = this.bucket(size, t);
      if (b) out.push(b);
    }
    return out;
  }
}
