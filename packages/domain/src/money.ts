import Decimal from 'decimal.js';

/** Decimals of a USDT figure on the wire (micro-USDT, as the ledger keeps it). */
export const USDT_DECIMALS = 6;

/**
 * A USDT figure as the API shows it: rounded half-even to micro-USDT, without trailing zeros or a
 * negative zero. Stored figures keep 18 decimals; only what is shown is rounded (docs/pnl.md#shown-figures).
 */
export const usdtFigure = (value: Decimal.Value): string =>
  new Decimal(value).toDecimalPlaces(USDT_DECIMALS, Decimal.ROUND_HALF_EVEN).toFixed();
