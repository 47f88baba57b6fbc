import Decimal from 'decimal.js';
import { GridError } from './errors';
import { exactDifference, exactSum } from './exact';
import type { BuyFill, ClosedLot, Lot, SellFill } from './types';

/*
 * The one model of a lot's money (docs/pnl.md), used by live fills (services) and the replay:
 * a buy opens a lot; every sold part closes its pro-rata share of the cost and realizes
 * proceeds − share on the day of the sale; the lot is one trade, closed when its last quantity
 * is sold, profitable when the exact sum of its parts' PnL is > 0. Sums and differences are
 * exact (exact.ts), so a lot that breaks even is 0, never ±1e-20.
 */

/**
 * Decimal places of a cost share. Lots are stored with 18 decimals (prisma/schema.prisma); the
 * share of a partial sale (a division) is rounded there, so the remainder kept in the database
 * is exactly the remainder this model computed, and Σ shares = the lot's cost.
 */
export const COST_SHARE_DECIMALS = 18;

const ZERO = new Decimal(0);
const positive = (value: Decimal) => value.isFinite() && value.gt(0);
const validDate = (at: Date) => at instanceof Date && !Number.isNaN(at.getTime());

/** A filled buy as a new lot: nothing sold yet. */
export const openLot = (fill: BuyFill): Lot => {
  if (!positive(fill.price) || !positive(fill.qty) || !positive(fill.cost) || !validDate(fill.at)) {
    throw new GridError(
      'INVALID_FILL',
      `buy fill for lot ${fill.seq} needs a positive price, qty, cost and a date`,
    );
  }
  return {
    seq: fill.seq,
    price: fill.price,
    qty: fill.qty,
    cost: fill.cost,
    openedAt: fill.at,
    realizedPnl: ZERO,
  };
};

export type LotSale = {
  /** The sold part, with the lot's running PnL and, when it closed the lot, whether it was profitable. */
  sold: ClosedLot;
  /** The lot after the sale; null once closed. */
  lot: Lot | null;
  /**
   * Quantity and cost left when a finished take profit closes a lot without selling all of it
   * (sells are whole lot steps): the caller carries them into the next lot. Zero otherwise.
   */
  left: { qty: Decimal; cost: Decimal };
};

export type SellOptions = {
  /**
   * The take profit finished: the lot closes even if quantity below one lot step is left unsold
   * (that rest, with its share of the cost, is returned in `left`). Without it the lot closes
   * only when the sale takes its whole quantity.
   */
  finishesLot?: boolean;
};

/** The cost share of selling `qty` of the lot: pro rata, rounded to COST_SHARE_DECIMALS; the whole cost for the whole lot. */
export const costShare = (lot: Lot, qty: Decimal): Decimal =>
  qty.eq(lot.qty)
    ? lot.cost
    : lot.cost.times(qty).div(lot.qty).toDecimalPlaces(COST_SHARE_DECIMALS, Decimal.ROUND_HALF_EVEN);

/** Applies a (possibly partial) sell fill to a lot. */
export const sellFromLot = (lot: Lot, fill: SellFill, options: SellOptions = {}): LotSale => {
  if (fill.lotSeq !== lot.seq) {
    throw new GridError('LOT_NOT_FOUND', `sell fill for lot ${fill.lotSeq} applied to lot ${lot.seq}`);
  }
  if (!positive(fill.price) || !positive(fill.qty) || !fill.proceeds.isFinite() || fill.proceeds.lt(0)) {
    throw new GridError('INVALID_FILL', `sell fill for lot ${fill.lotSeq} needs a positive price and qty`);
  }
  if (!validDate(fill.at))
    throw new GridError('INVALID_FILL', `sell fill for lot ${fill.lotSeq} needs a date`);
  if (fill.qty.gt(lot.qty)) {
    throw new GridError('SELL_EXCEEDS_LOT', `sell of ${fill.qty} exceeds lot ${lot.seq} qty ${lot.qty}`);
  }
  const cost = costShare(lot, fill.qty);
  const pnl = exactDifference(fill.proceeds, cost);
  const lotPnl = exactSum(lot.realizedPnl, pnl);
  const restQty = exactDifference(lot.qty, fill.qty);
  const restCost = exactDifference(lot.cost, cost);
  const lotClosed = restQty.isZero() || options.finishesLot === true;
  const sold: ClosedLot = {
    seq: lot.seq,
    buyPrice: lot.price,
    sellPrice: fill.price,
    qty: fill.qty,
    cost,
    proceeds: fill.proceeds,
    pnl,
    openedAt: lot.openedAt,
    closedAt: fill.at,
    lotClosed,
    lotPnl,
    profitable: lotClosed && lotPnl.gt(0),
  };
  if (lotClosed) return { sold, lot: null, left: { qty: restQty, cost: restCost } };
  return {
    sold,
    lot: { ...lot, qty: restQty, cost: restCost, realizedPnl: lotPnl },
    left: { qty: ZERO, cost: ZERO },
  };
};

/** What a sale adds to the closed / profitable trade counters (coin bot totals and the day of the sale). */
export const tradeCounts = (sold: ClosedLot): { closedTrades: number; profitableTrades: number } => ({
  closedTrades: sold.lotClosed ? 1 : 0,
  profitableTrades: sold.profitable ? 1 : 0,
});
