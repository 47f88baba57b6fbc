import Decimal from 'decimal.js';
import { exactProduct } from './exact';

const DAY_MS = 86_400_000;

/** Below this runtime an annualized figure would multiply a few hours' luck by hundreds. */
export const MIN_ANNUALIZED_DAYS = 1;

/** Digits kept by the divisions below (a figure on the wire has 2 decimals). */
const Divide = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });

export type RunReturnValues = {
  /** Whole seconds since the first start (pauses included); null before it. */
  runtimeSeconds: number | null;
  /** realized / capital × 100; null without capital. */
  returnPct: Decimal | null;
  /** returnPct × 365 / runtime in days (simple, not compounded); null under a day of runtime. */
  annualizedPct: Decimal | null;
};

/**
 * Runtime and return of a coin bot or of a whole portfolio (docs/pnl.md#runtime-and-return):
 * return on the capital the trader set aside (orderSize × maxTrades), annualized simply over the
 * runtime counted from the first start.
 */
export const runReturn = (input: {
  realizedPnl: Decimal.Value;
  capital: Decimal.Value;
  startedAt: Date | null;
  now: Date;
}): RunReturnValues => {
  const capital = new Decimal(input.capital);
  const realized = exactProduct(input.realizedPnl, 100);
  const returnPct = capital.isZero() ? null : new Decimal(new Divide(realized).div(capital));
  if (input.startedAt === null) return { runtimeSeconds: null, returnPct, annualizedPct: null };
  const runtimeMs = Math.max(0, input.now.getTime() - input.startedAt.getTime());
  // One division of exact products: realized × 100 × 365 × a day / (capital × runtime).
  const annualizedPct =
    returnPct === null || runtimeMs < MIN_ANNUALIZED_DAYS * DAY_MS
      ? null
      : new Decimal(new Divide(exactProduct(realized, 365, DAY_MS)).div(exactProduct(capital, runtimeMs)));
  return { runtimeSeconds: Math.floor(runtimeMs / 1000), returnPct, annualizedPct };
};
