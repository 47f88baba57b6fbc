import Decimal from 'decimal.js';
import { lotTotals } from './formulas';
import type { ClosedLot, GridState } from './types';

export type CoinStatsValues = {
  /** Σq × last price − Σc over open lots. */
  unrealizedPnl: Decimal;
  /** Σ(proceeds − cost) over closed lots. */
  realizedPnl: Decimal;
  openDeals: number;
  /** Σc / Σq of open lots (fees included); null without lots. */
  avgPrice: Decimal | null;
  openQty: Decimal;
  /** Σc of open lots: the capital in the coin now. */
  invested: Decimal;
  /** Closed lots (or sold parts of lots) with pnl > 0. */
  profitableTrades: number;
  closedTrades: number;
};

/** Realized PnL, summed in the order given (replay sums in fill order, so the figures match exactly). */
export const realizedPnl = (closedLots: readonly ClosedLot[]): Decimal =>
  closedLots.reduce((sum, lot) => sum.plus(lot.pnl), new Decimal(0));

export const coinStats = (
  state: GridState,
  closedLots: readonly ClosedLot[],
  lastPrice: Decimal,
): CoinStatsValues => {
  const open = lotTotals(state.lots);
  return {
    unrealizedPnl: open.qty.times(lastPrice).minus(open.cost),
    realizedPnl: realizedPnl(closedLots),
    openDeals: state.lots.length,
    avgPrice: state.lots.length > 0 ? open.cost.div(open.qty) : null,
    openQty: open.qty,
    invested: open.cost,
    profitableTrades: closedLots.filter((lot) => lot.pnl.gt(0)).length,
    closedTrades: closedLots.length,
  };
};

export type PnlBucket = { period: string; pnl: Decimal; trades: number };

const bucketBy = (closedLots: readonly ClosedLot[], periodOf: (at: Date) => string): PnlBucket[] => {
  const buckets = new Map<string, PnlBucket>();
  for (const lot of closedLots) {
    const period = periodOf(lot.closedAt);
    const bucket = buckets.get(period);
    if (bucket) {
      bucket.pnl = bucket.pnl.plus(lot.pnl);
      bucket.trades += 1;
    } else {
      buckets.set(period, { period, pnl: lot.pnl, trades: 1 });
    }
  }
  return [...buckets.values()].sort((a, b) => (a.period < b.period ? -1 : a.period > b.period ? 1 : 0));
};

/** Realized PnL per UTC day of the sale (`YYYY-MM-DD`), ascending; days without sales are absent. */
export const pnlByDay = (closedLots: readonly ClosedLot[]): PnlBucket[] =>
  bucketBy(closedLots, (at) => at.toISOString().slice(0, 10));

/** Realized PnL per UTC month of the sale (`YYYY-MM`), ascending; months without sales are absent. */
export const pnlByMonth = (closedLots: readonly ClosedLot[]): PnlBucket[] =>
  bucketBy(closedLots, (at) => at.toISOString().slice(0, 7));
