import { Decimal } from 'decimal.js';
import { BinanceError } from './binance-error';

/**
 * The sandbox's own Decimal: 40 significant digits so that products such as quantity × price never
 * round before we round them ourselves to Binance's 8 decimals.
 */
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Dec = Decimal;

export const ZERO = new Dec(0);

/** Binance writes every amount with exactly 8 decimals ("0.00100000"). */
export const fmt8 = (value: Decimal): string => value.toFixed(8, Decimal.ROUND_DOWN);

/** "60000.00000000" → "60000": a decimal without trailing zeros, as Bybit and OKX send them. */
export const trimZeros = (text: string): string => (text.includes('.') ? text.replace(/\.?0+$/, '') : text);

/** Amounts the ledger keeps: 8 decimals, like Binance's balances. */
export const round8 = (value: Decimal, rounding: Decimal.Rounding = Decimal.ROUND_DOWN): Decimal =>
  value.toDecimalPlaces(8, rounding);

const DECIMAL_PARAM = /^([0-9]{1,20})(\.[0-9]{1,20})?$/;

/** Parses a numeric request parameter the way Binance validates it (-1100 on anything else). */
export const parseDecimalParam = (name: string, raw: string): Decimal => {
  if (!DECIMAL_PARAM.test(raw)) {
    throw new BinanceError(
      -1100,
      `Illegal characters found in parameter '${name}'; legal range is '^([0-9]{1,20})(\\.[0-9]{1,20})?$'.`,
    );
  }
  return new Dec(raw);
};

/** Parses a decimal given by the control API or a config (positive, finite). */
export const parsePositive = (name: string, raw: string | number): Decimal => {
  const value = new Dec(String(raw));
  if (!value.isFinite() || value.lte(0)) throw new Error(`${name} must be a positive decimal, got ${raw}`);
  return value;
};

/** `value` is an integer multiple of `step` (Binance's tick and lot rules). */
export const isMultipleOf = (value: Decimal, step: Decimal): boolean => value.mod(step).isZero();

/** The largest multiple of `step` not above `value`. */
export const floorToStep = (value: Decimal, step: Decimal): Decimal => value.div(step).floor().mul(step);

/** The nearest multiple of `step`, never below one step (a price of zero is not a price). */
export const roundToStep = (value: Decimal, step: Decimal): Decimal => {
  const rounded = value.div(step).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).mul(step);
  return rounded.lt(step) ? new Dec(step) : rounded;
};
