/*
 * The bounds of a coin's grid settings, in one place: the API contract (zod), the web forms, the
 * planner, the replay CLI and the edit preview all use these (docs/grid.md#settings). Exact decimal
 * strings and bigint arithmetic only, so the contract can use this module without decimal.js.
 */

/** Order size in USDT: the spec's minimum 6 (just above Binance's 5 USDT minimum notional). */
export const ORDER_SIZE_MIN_USDT = '6';
export const ORDER_SIZE_MAX_USDT = '100000';
/** A step below 0.5 % would be eaten by the exchange fee on both legs (≈ 0.2 %). */
export const STEP_PCT_MIN = '0.5';
export const STEP_PCT_MAX = '10';
export const STEP_INCREASE_PCT_MIN = '0';
export const STEP_INCREASE_PCT_MAX = '10';
export const MAX_TRADES_MIN = 1;
export const MAX_TRADES_MAX = 300;
/** The deepest averaging step `stepPct + (maxTrades − 2) × stepIncreasePct` must stay below this. */
export const DEEPEST_STEP_PCT_LIMIT = '100';

/** Applied when a coin is added and by reset_setting (the spec's example: 0.1 % on a 1 % step). */
export const DEFAULT_COIN_SETTINGS = {
  orderSize: '10',
  stepPct: '1',
  stepIncreasePct: '0.1',
  maxTrades: 10,
  dry: false,
} as const;

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** A decimal string as a scaled bigint (value × 10^scale); scale must cover its decimals. */
const scaled = (value: string, scale: number): bigint => {
  const match = DECIMAL.exec(value);
  if (!match) throw new RangeError(`not a decimal number: ${value}`);
  const [, sign, int, frac = ''] = match;
  const units = BigInt(int! + frac.padEnd(scale, '0'));
  return sign === '-' ? -units : units;
};

const decimalsOf = (value: string) => value.split('.')[1]?.length ?? 0;

const unscaled = (units: bigint, scale: number): string => {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
};

/**
 * `stepPct + (maxTrades − 2) × stepIncreasePct`, exactly: the drop, below the newest lot, of the
 * deepest averaging buy (the one that opens lot N). One lot means no averaging buy: the step itself.
 */
export const deepestStepPct = (stepPct: string, stepIncreasePct: string, maxTrades: number): string => {
  const scale = Math.max(decimalsOf(stepPct), decimalsOf(stepIncreasePct));
  const units = scaled(stepPct, scale) + BigInt(Math.max(0, maxTrades - 2)) * scaled(stepIncreasePct, scale);
  return unscaled(units, scale);
};

/** Exact comparison of two decimal strings: -1, 0 or 1. */
export const compareDecimalStrings = (a: string, b: string): -1 | 0 | 1 => {
  const scale = Math.max(decimalsOf(a), decimalsOf(b));
  const x = scaled(a, scale);
  const y = scaled(b, scale);
  if (x === y) return 0;
  return x < y ? -1 : 1;
};

/** The deepest averaging buy stays above zero price with room: its step is below the limit. */
export const isDeepestStepAllowed = (stepPct: string, stepIncreasePct: string, maxTrades: number): boolean =>
  compareDecimalStrings(deepestStepPct(stepPct, stepIncreasePct, maxTrades), DEEPEST_STEP_PCT_LIMIT) < 0;
