import Decimal from 'decimal.js';

/*
 * Touch tests on doubles that decide exactly as decimals would.
 *
 * The hot loop compares candle doubles with a trigger's double. Both are correctly rounded
 * images of decimals (the file's price, the trigger's Decimal), each within 2^-53 relative of
 * its decimal, so a double comparison is exact whenever the two differ by more than a tiny
 * relative band (EPS, far wider than the rounding). Inside the band the decimals decide: a
 * price with ≤ 15 significant digits is recovered exactly from its double (shortest round-trip
 * formatting, which is how decimal.js converts numbers), so low == trigger in the file
 * touches exactly as it would in exact decimals.
 */
const EPS = 1e-13;

export type Trigger = {
  value: Decimal;
  /** value as a double. */
  num: number;
  /** Below lo a double is surely below value; above hi surely above. */
  lo: number;
  hi: number;
};

export const trigger = (value: Decimal): Trigger => {
  const num = value.toNumber();
  return { value, num, lo: num * (1 - EPS), hi: num * (1 + EPS) };
};

/** The file decimal behind a candle price. */
export const exactPrice = (price: number): Decimal => new Decimal(price);

/** price ≤ trigger, decided as in exact decimals. */
export const atOrBelow = (price: number, t: Trigger): boolean => {
  if (price < t.lo) return true;
  if (price > t.hi) return false;
  return exactPrice(price).lte(t.value);
};

/** price ≥ trigger, decided as in exact decimals. */
export const atOrAbove = (price: number, t: Trigger): boolean => {
  if (price > t.hi) return true;
  if (price < t.lo) return false;
  return exactPrice(price).gte(t.value);
};
