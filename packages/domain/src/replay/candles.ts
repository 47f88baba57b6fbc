import Decimal from 'decimal.js';

/**
 * Candles for the replay, column-wise in typed arrays: the hot loop reads two numbers per candle
 * and never allocates. Prices are doubles for the fast path; the file's exact decimal is the
 * double's shortest text, except for the few prices listed in `exact` (more than 15 significant
 * digits, which a double may not reproduce), where the replay finds the file's own text.
 */
export type CandleSeries = {
  length: number;
  /** Candle open time, Unix ms UTC, strictly increasing. */
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  /** The file's text of prices a double does not reproduce, by `index * 4 + field`. */
  exact: Map<number, string>;
};

/** Price columns, as used in `exact` keys. */
export const OPEN = 0;
export const HIGH = 1;
export const LOW = 2;
export const CLOSE = 3;
export type PriceField = typeof OPEN | typeof HIGH | typeof LOW | typeof CLOSE;

const COLUMNS = ['open', 'high', 'low', 'close'] as const;

export const allocateCandles = (length: number): CandleSeries => ({
  length,
  time: new Float64Array(length),
  open: new Float64Array(length),
  high: new Float64Array(length),
  low: new Float64Array(length),
  close: new Float64Array(length),
  exact: new Map(),
});

/** A copy holding only the first `length` candles (for readers that over-allocate). */
export const truncateCandles = (series: CandleSeries, length: number): CandleSeries => {
  const exact = new Map<number, string>();
  for (const [key, text] of series.exact) if (key < length * 4) exact.set(key, text);
  return {
    length,
    time: series.time.slice(0, length),
    open: series.open.slice(0, length),
    high: series.high.slice(0, length),
    low: series.low.slice(0, length),
    close: series.close.slice(0, length),
    exact,
  };
};

/**
 * Whether a decimal text might not come back from its double: more than 15 significant digits
 * (every decimal with ≤ 15 is recovered exactly by shortest round-trip formatting).
 */
export const mayLoseDigits = (text: string): boolean => {
  if (text.length <= 15) return false;
  let digits = 0;
  let leading = true;
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 101 || c === 69) break; // e, E: the exponent does not count
    if (c < 48 || c > 57) continue;
    if (leading && c === 48) continue;
    leading = false;
    digits += 1;
  }
  return digits > 15;
};

/** Sets one price from its decimal text: the double for the fast path, the text itself when the double may lose digits. */
export const setCandlePrice = (
  series: CandleSeries,
  index: number,
  field: PriceField,
  text: string,
): void => {
  series[COLUMNS[field]][index] = Number(text);
  if (mayLoseDigits(text)) series.exact.set(index * 4 + field, text);
  else series.exact.delete(index * 4 + field);
};

/** The exact decimal of a candle's price. */
export const candleDecimal = (series: CandleSeries, index: number, field: PriceField): Decimal => {
  const text = series.exact.size > 0 ? series.exact.get(index * 4 + field) : undefined;
  return new Decimal(text ?? series[COLUMNS[field]][index]!);
};

export type CandleValues = { time: number; open: number; high: number; low: number; close: number };

/**
 * Why a candle cannot be replayed, or null. The path model (O → L → H → C) needs positive prices
 * with open and close inside [low, high], and times strictly after the previous candle's.
 * Doubles decide here; exactCandleProblem re-checks candles with prices in `exact`.
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

/**
 * The same checks on the exact decimals of candle `index` (only needed when one of its prices
 * has an entry in `exact`: equal doubles may hide decimals in the wrong order).
 */
export const exactCandleProblem = (series: CandleSeries, index: number): string | null => {
  const [open, high, low, close] = [OPEN, HIGH, LOW, CLOSE].map((f) =>
    candleDecimal(series, index, f as PriceField),
  ) as [Decimal, Decimal, Decimal, Decimal];
  if (high.lt(low)) return `high ${high.toFixed()} is below low ${low.toFixed()}`;
  if (open.gt(high) || open.lt(low))
    return `open ${open.toFixed()} is outside [low ${low.toFixed()}, high ${high.toFixed()}]`;
  if (close.gt(high) || close.lt(low))
    return `close ${close.toFixed()} is outside [low ${low.toFixed()}, high ${high.toFixed()}]`;
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
