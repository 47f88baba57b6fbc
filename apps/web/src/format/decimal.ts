/**
 * Money and quantities arrive as decimal strings and are formatted as strings: never through a JS
 * number, so no float rounding can change a figure (docs/conventions.md#money-and-numbers).
 */
const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/;

export type Sign = 'positive' | 'negative' | 'zero';

type Parts = { negative: boolean; int: string; frac: string };

const parse = (value: string): Parts | null => {
  const match = DECIMAL.exec(value.trim());
  if (!match) return null;
  return { negative: match[1] === '-', int: match[2] ?? '0', frac: match[3] ?? '' };
};

const isZero = (parts: Parts) => /^0*$/.test(parts.int) && /^0*$/.test(parts.frac);

export const signOf = (value: string): Sign => {
  const parts = parse(value);
  if (!parts || isZero(parts)) return 'zero';
  return parts.negative ? 'negative' : 'positive';
};

/** Rounds half away from zero to `digits` decimals, exactly (BigInt on the digits). */
export const roundDecimal = (value: string, digits: number): string => {
  const parts = parse(value);
  if (!parts) return value;
  const frac = parts.frac.padEnd(digits + 1, '0');
  let units = BigInt(parts.int + frac.slice(0, digits));
  if (Number(frac[digits] ?? '0') >= 5) units += 1n;
  const text = units.toString().padStart(digits + 1, '0');
  const int = text.slice(0, text.length - digits) || '0';
  const rounded = digits > 0 ? `${int}.${text.slice(text.length - digits)}` : int;
  const zero = /^[0.]*$/.test(rounded);
  return parts.negative && !zero ? `-${rounded}` : rounded;
};

/**
 * Decimals a market step is shown with: the fraction digits of its shortest form (`0.01000000` → 2,
 * `0.5` → 1, `1` → 0); null for anything but a positive decimal (no step known).
 */
export const stepDecimals = (step: string): number | null => {
  const parts = parse(step);
  if (!parts || parts.negative || isZero(parts)) return null;
  return parts.frac.replace(/0+$/, '').length;
};

/** How a figure goes onto a step: to the nearest one, half away from zero, or toward zero. */
export type StepRounding = 'nearest' | 'down';

/**
 * `value` on a multiple of `step`, exactly (BigInt on the digits), written with the step's decimals
 * and its zeros kept: `toStep('79.4', '0.01', 'nearest')` is `79.40`, `toStep('0.2650192',
 * '0.0001', 'down')` is `0.2650`. `nearest` is how the engine rounds an order's price to the tick
 * (ccxt priceToPrecision: half up), `down` how it truncates a quantity to the lot step
 * (amountToPrecision). null when `value` or `step` is not a decimal, or the step is not positive.
 */
export const toStep = (value: string, step: string, rounding: StepRounding): string | null => {
  const parts = parse(value);
  const stepParts = parse(step);
  const decimals = stepDecimals(step);
  if (!parts || !stepParts || decimals === null) return null;
  const scale = Math.max(parts.frac.length, stepParts.frac.length);
  const units = (p: Parts) => BigInt(p.int + p.frac.padEnd(scale, '0'));
  const magnitude = units(parts);
  const stepUnits = units(stepParts);
  let steps = magnitude / stepUnits;
  if (rounding === 'nearest' && (magnitude % stepUnits) * 2n >= stepUnits) steps += 1n;
  const text = (steps * stepUnits).toString().padStart(scale + 1, '0');
  const int = text.slice(0, text.length - scale);
  // The digits past the step's own decimals are zeros: the figure is a multiple of the step.
  const frac = text.slice(text.length - scale, text.length - scale + decimals);
  const body = decimals > 0 ? `${int}.${frac}` : int;
  return parts.negative && steps > 0n ? `-${body}` : body;
};

/** Removes trailing zeros of the fraction, keeping at least `minDigits` decimals. */
export const trimDecimal = (value: string, minDigits = 0): string => {
  const parts = parse(value);
  if (!parts) return value;
  let frac = parts.frac.replace(/0+$/, '');
  if (frac.length < minDigits) frac = frac.padEnd(minDigits, '0');
  const int = parts.int.replace(/^0+(?=\d)/, '');
  return `${parts.negative && !isZero(parts) ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
};

export type NumberSymbols = { group: string; decimal: string };

/** Groups the integer part and swaps in the locale's symbols; keeps the sign. */
export const localizeDecimal = (
  value: string,
  symbols: NumberSymbols,
  options: { plus?: boolean } = {},
): string => {
  const parts = parse(value);
  if (!parts) return value;
  const int = parts.int.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+(?!\d))/g, symbols.group);
  const body = parts.frac ? `${int}${symbols.decimal}${parts.frac}` : int;
  if (parts.negative && !isZero(parts)) return `−${body}`;
  return options.plus && !isZero(parts) ? `+${body}` : body;
};

/** Exact comparison of two decimal strings (malformed ones compare equal). */
export const compareDecimals = (a: string, b: string): -1 | 0 | 1 => {
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return 0;
  const scale = Math.max(x.frac.length, y.frac.length);
  const units = (p: Parts) => BigInt(p.int + p.frac.padEnd(scale, '0')) * (p.negative ? -1n : 1n);
  const ux = units(x);
  const uy = units(y);
  if (ux === uy) return 0;
  return ux < uy ? -1 : 1;
};

const toMicros = (value: string): bigint => {
  const parts = parse(value);
  if (!parts) return 0n;
  const units = BigInt(parts.int + parts.frac.padEnd(6, '0').slice(0, 6));
  return parts.negative ? -units : units;
};

const MICROS = 1_000_000n;

/** Micro-units back to a decimal string, trailing zeros trimmed. */
const fromMicros = (micros: bigint): string => {
  const magnitude = micros < 0n ? -micros : micros;
  const frac = (magnitude % MICROS).toString().padStart(6, '0');
  return trimDecimal(`${micros < 0n ? '-' : ''}${magnitude / MICROS}.${frac}`);
};

/**
 * `a − b` of two USDT amounts (6 decimals), exactly on integer micro-units: what a withdrawal
 * delivers after its network fee. What the server books is the server's figure; this is the preview.
 */
export const subtractUsdt = (a: string, b: string): string => fromMicros(toMicros(a) - toMicros(b));

/**
 * |value| / |max| in [0, 1] for drawing (bar heights); computed on integer micro-units, the figures
 * themselves never become floats.
 */
export const ratioOf = (value: string, max: string): number => {
  const abs = (n: bigint) => (n < 0n ? -n : n);
  const denominator = abs(toMicros(max));
  if (denominator === 0n) return 0;
  const scaled = (abs(toMicros(value)) * 1000n) / denominator;
  return Math.min(1000, Number(scaled)) / 1000;
};

/** The largest absolute value of a list of decimal strings ("0" for none). */
export const maxAbsOf = (values: readonly string[]): string =>
  values.reduce((best, value) => {
    const magnitude = value.replace(/^[+-]/, '');
    return compareDecimals(magnitude, best) > 0 ? magnitude : best;
  }, '0');
