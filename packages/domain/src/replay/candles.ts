/**
 * Candles for the replay, column-wise in typed arrays: the hot loop reads two numbers per candle
 * and never allocates. Prices are doubles parsed from the file's decimals; where exactness
 * matters the replay recovers the decimal (see exact-touch.ts).
 */
export type CandleSeries = {
  length: number;
  /** Candle open time, Unix ms UTC, strictly increasing. */
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
};

export const allocateCandles = (length: number): CandleSeries => ({
  length,
  time: new Float64Array(length),
  open: new Float64Array(length),
  high: new Float64Array(length),
  low: new Float64Array(length),
  close: new Float64Array(length),
});

/** A copy holding only the first `length` candles (for readers that over-allocate). */
export const truncateCandles = (series: CandleSeries, length: number): CandleSeries => ({
  length,
  time: series.time.slice(0, length),
  open: series.open.slice(0, length),
  high: series.high.slice(0, length),
  low: series.low.slice(0, length),
  close: series.close.slice(0, length),
});

export type CandleValues = { time: number; open: number; high: number; low: number; close: number };

/**
 * Why a candle cannot be replayed, or null. The path model (O → L → H → C) needs positive prices
 * with open and close inside [low, high], and times strictly after the previous candle's.
 */
export const candleProblem = (candle: CandleValues, previousTime: number | null): string | null => {
  const { time, open, high, low, close } = candle;
  if (!Number.isFinite(time)) return `time ${time} is not a number`;
  for (const [name, value] of [
    ['open', open],
    ['high', high],
    ['low', low],
    ['close', close],
  ] as const) {
    if (!Number.isFinite(value) || value <= 0) return `${name} ${value} is not a positive number`;
  }
  if (high < low) return `high ${high} is below low ${low}`;
  if (open > high || open < low) return `open ${open} is outside [low ${low}, high ${high}]`;
  if (close > high || close < low) return `close ${close} is outside [low ${low}, high ${high}]`;
  if (previousTime !== null && time <= previousTime) {
    return `time ${time} is not after the previous candle's time ${previousTime} (candles must be sorted, without duplicates)`;
  }
  return null;
};

/** Index of the first candle whose time is ≥ `at` (binary search; times are sorted), or length. */
export const firstCandleAtOrAfter = (series: CandleSeries, at: number): number => {
  let lo = 0;
  let hi = series.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (series.time[mid]! < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};
