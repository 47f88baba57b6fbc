import {
  exactDifference,
  exactSum,
  type Lot,
  openLot as openLotFromFill,
  sellFromLot,
  tradeCounts,
} from '@gridbot/domain';
import Decimal from 'decimal.js';
import type { TradeTotals } from './record-order-outcome';

const ZERO = new Decimal(0);

/** Lots are stored with 18 decimals: proceeds are rounded there before the model sees them, so what it sums is what is stored. */
const STORED_DECIMALS = 18;

/** The UTC day a fill's PnL belongs to (docs/pnl.md). */
export const utcDay = (at: Date) =>
  new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

/**
 * The lot a finished buy opens (lot `seq`), together with any coin carried over from earlier
 * sells. Pure: record-order-outcome and the demo's history (demo/seed-demo-history.ts) book with it.
 */
export const lotOfBuy = (seq: number, carry: { qty: Decimal; cost: Decimal }, totals: TradeTotals): Lot =>
  openLotFromFill({
    seq,
    price: totals.quoteQty.div(totals.amount),
    // Binance takes the buy fee from the coin received; any other fee currency adds to the cost.
    qty: exactSum(exactDifference(totals.amount, totals.feeInBase), carry.qty),
    cost: exactSum(exactSum(totals.quoteQty, totals.feeInQuote), carry.cost),
    at: totals.at,
  });

/** Can this quantity bought at this price be a lot of its own (its take profit an order the exchange accepts)? */
export type LotOrderable = (qty: Decimal, lotPrice: Decimal) => boolean;

/**
 * A finished buy, booked (docs/grid.md#remainders): the next lot, with any carried coin; or, when
 * the order was cancelled after a partial fill (an edit, a pause) and that lot's take profit would
 * be refused by the exchange (LOT_SIZE, NOTIONAL), no lot — its coin and cost join the carry, so
 * it never holds a slot of the purchase limit without an order. A completely filled buy always
 * opens its lot (the order size is checked against the minimum when the settings are saved).
 */
export const bookingOfBuy = (
  seq: number,
  carry: { qty: Decimal; cost: Decimal },
  totals: TradeTotals,
  options: { complete: boolean; orderable: LotOrderable },
): { lot: Lot; carry: null } | { lot: null; carry: { qty: Decimal; cost: Decimal } } => {
  const lot = lotOfBuy(seq, carry, totals);
  if (options.complete || options.orderable(lot.qty, lot.price)) return { lot, carry: null };
  return { lot: null, carry: { qty: lot.qty, cost: lot.cost } };
};

/**
 * Does a take profit's fill finish its lot (docs/grid.md#remainders)? When the order filled
 * completely (any sub-step rest is carried), or when it was cancelled after a partial fill and
 * the rest could not be sold by an order of its own: then the rest is carried too.
 */
export const finishesLotOf = (lot: Lot, soldQty: Decimal, complete: boolean, orderable: LotOrderable) =>
  complete || !orderable(exactDifference(lot.qty, Decimal.min(soldQty, lot.qty)), lot.price);

/**
 * A take profit's fills through the lot model (docs/pnl.md): every part realizes its PnL on the
 * day it sold; the lot is one trade, counted when its take profit finished (or its last quantity
 * sold), profitable when the sum of its parts' PnL is > 0. Sell quantities are whole lot steps,
 * so a finished take profit may leave a little coin unsold: `left` goes to the coin bot's carry
 * (with its share of the cost) and joins the next lot, instead of being lost or booked as a loss.
 * Pure: returns the lot's new columns (`rest` undefined when it closed), the carry and the PnL.
 */
export const saleOfLot = (
  lot: Lot,
  /** USDT the lot's earlier parts received (null before its first sale). */
  receivedBefore: Decimal | null,
  totals: TradeTotals,
  finishesLot: boolean,
) => {
  const price = totals.quoteQty.div(totals.amount);
  const proceeds = totals.quoteQty
    .minus(totals.feeInQuote)
    .minus(totals.feeInBase.times(price))
    .toDecimalPlaces(STORED_DECIMALS, Decimal.ROUND_HALF_EVEN);
  const {
    sold,
    lot: rest,
    left,
  } = sellFromLot(
    lot,
    { lotSeq: lot.seq, price, qty: Decimal.min(totals.amount, lot.qty), proceeds, at: totals.at },
    { finishesLot },
  );
  const received = exactSum(receivedBefore ?? ZERO, sold.proceeds);
  const columns = rest
    ? {
        qty: rest.qty.toString(),
        cost: rest.cost.toString(),
        proceeds: received.toString(),
        realizedPnl: rest.realizedPnl.toString(),
      }
    : {
        qty: sold.qty.toString(),
        cost: sold.cost.toString(),
        sellPrice: price.toString(),
        proceeds: received.toString(),
        pnl: sold.lotPnl.toString(),
        realizedPnl: sold.lotPnl.toString(),
        closedAt: totals.at,
      };
  return { rest, columns, received, left, pnl: sold.pnl, day: utcDay(totals.at), ...tradeCounts(sold) };
};
