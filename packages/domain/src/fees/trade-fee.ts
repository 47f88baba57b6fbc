import Decimal from 'decimal.js';

/** The platform's trading fee: this share (%) of each closed lot's positive net profit (docs/fees.md). */
export const TRADE_FEE_PCT = '20';

const MICRO = new Decimal(1_000_000);

/**
 * The trading fee of one closed lot, in micro-USDT: 20 % of its net profit (after both exchange
 * fees), rounded down to the micro-USDT, so the platform never takes more than its share. A lot
 * closed at a loss or at zero pays nothing (0n); losses are not carried forward.
 */
export const tradeFeeMicro = (lotPnl: Decimal.Value, feePct: Decimal.Value = TRADE_FEE_PCT): bigint => {
  const pnl = new Decimal(lotPnl);
  if (!pnl.isFinite() || pnl.lte(0)) return 0n;
  const fee = pnl.times(feePct).div(100).times(MICRO).toDecimalPlaces(0, Decimal.ROUND_DOWN);
  return BigInt(fee.toFixed(0));
};
