import Decimal from 'decimal.js';

/*
 * Products, sums and differences of finite decimals are finite decimals: computed in this clone
 * they never round (no product in the product needs more than a few thousand digits; the deepest
 * ladder, 300 levels of 8-digit factors, has ~2,400). It is never used to divide (a division
 * would run to a million digits). Results go back into plain Decimal instances, which keep every
 * digit (decimal.js rounds results of operations, never values) so callers cannot divide in it by
 * accident.
 */
const Exact = Decimal.clone({ precision: 1_000_000 });

const ONE = new Exact(1);
const HUNDREDTH = new Exact('0.01');

/** a × b × … without rounding. */
export const exactProduct = (...factors: Decimal.Value[]): Decimal => {
  let product = ONE;
  for (const factor of factors) product = product.times(factor);
  return new Decimal(product);
};

/** a + b without rounding. */
export const exactSum = (a: Decimal.Value, b: Decimal.Value): Decimal => new Decimal(new Exact(a).plus(b));

/** a − b without rounding. */
export const exactDifference = (a: Decimal.Value, b: Decimal.Value): Decimal =>
  new Decimal(new Exact(a).minus(b));

/** 1 + pct / 100, exactly. */
export const onePlusPct = (pct: Decimal.Value): Decimal => new Decimal(ONE.plus(HUNDREDTH.times(pct)));

/** 1 − pct / 100, exactly. */
export const oneMinusPct = (pct: Decimal.Value): Decimal => new Decimal(ONE.minus(HUNDREDTH.times(pct)));
