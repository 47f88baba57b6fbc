import Decimal from 'decimal.js';
import { exactDifference, exactProduct, exactSum } from './exact';
import { lotTotals } from './formulas';
import { tradeCounts } from './lot-sale';
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
  /** Closed lots whose parts' PnL sum to > 0 (docs/pnl.md). */
  profitableTrades: number;
  /** Closed lots: a lot sold in parts is one trade, counted when its last part sells. */
  closedTrades: number;
};

/** Realized PnL of every sold part (exact sum). */
export const realizedPnl = (closedLots: readonly ClosedLot[]): Decimal =>
  closedLots.reduce((sum, lot) => exactSum(sum, lot.pnl), new Decimal(0));

export const coinStats = (
  state: GridState,
  closedLots: readonly ClosedLot[],
  lastPrice: Decimal,
): CoinStatsValues => {
  const open = lotTotals(state.lots);
  return {
    unrealizedPnl: exactDifference(exactProduct(open.qty, lastPrice), open.cost),
    realizedPnl: realizedPnl(closedLots),
    openDeals: state.lots.length,
    avgPrice: state.lots.length > 0 ? open.cost.div(open.qty) : null,
    openQty: open.qty,
    invested: open.cost,
    profitableTrades: closedLots.filter((lot) => lot.profitable).length,
    closedTrades: closedLots.filter((lot) => lot.lotClosed).length,
  };
};

/** pnl: every part sold in the period; trades: lots whose last part sold in it. */
export type PnlBucket = { period: string; pnl: Decimal; trades: number };

const bucketBy = (closedLots: readonly ClosedLot[], periodOf: (at: Date) => string): PnlBucket[] => {
  const buckets = new Map<string, PnlBucket>();
  for (const lot of closedLots) {
    const period = periodOf(lot.closedAt);
    const bucket = buckets.get(period);
    if (bucket) {
      bucket.pnl = exactSum(bucket.pnl, lot.pnl);
      bucket.trades += tradeCounts(lot).closedTrades;
    } else {
      buckets.set(period, { period, pnl: lot.pnl, trades: tradeCounts(lot).closedTrades });
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
