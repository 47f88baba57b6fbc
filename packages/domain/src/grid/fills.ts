import type Decimal from 'decimal.js';
import { GridError } from './errors';
import type { BuyFill, ClosedLot, GridState, Lot, SellFill } from './types';

const positive = (value: Decimal) => value.isFinite() && value.gt(0);
const validDate = (at: Date) => at instanceof Date && !Number.isNaN(at.getTime());

/**
 * Records a filled buy as a new lot. A buy is applied whole: the caller (exchange adapter)
 * aggregates the trades of one order into one fill, and a partly filled buy that gets cancelled
 * becomes a smaller lot. The seq must be exactly state.nextSeq, so a fill can never be applied
 * twice (the second attempt throws instead of opening a duplicate lot).
 */
export const applyBuyFill = (state: GridState, fill: BuyFill): GridState => {
  if (state.lots.some((lot) => lot.seq === fill.seq)) {
    throw new GridError('LOT_ALREADY_OPEN', `lot ${fill.seq} is already open`);
  }
  if (fill.seq !== state.nextSeq) {
    throw new GridError('LOT_SEQ_MISMATCH', `buy fill for lot ${fill.seq}, expected lot ${state.nextSeq}`);
  }
  if (!positive(fill.price) || !positive(fill.qty) || !positive(fill.cost) || !validDate(fill.at)) {
    throw new GridError(
      'INVALID_FILL',
      `buy fill for lot ${fill.seq} needs a positive price, qty, cost and a date`,
    );
  }
  const lot: Lot = { seq: fill.seq, price: fill.price, qty: fill.qty, cost: fill.cost, openedAt: fill.at };
  return { lots: [...state.lots, lot], nextSeq: fill.seq + 1 };
};

/**
 * Records a sell against one lot. Partial sells are supported: the sold part closes with its
 * pro-rata share of the cost and the rest of the lot stays open (its take profit re-planned for
 * the remaining qty). A sell of the whole lot removes it, so re-applying that fill throws
 * LOT_NOT_FOUND; partial fills cannot be recognised here, so the caller applies each exchange
 * trade once (by trade id).
 */
export const applySellFill = (state: GridState, fill: SellFill): { state: GridState; closed: ClosedLot } => {
  const index = state.lots.findIndex((lot) => lot.seq === fill.lotSeq);
  const lot = state.lots[index];
  if (!lot) throw new GridError('LOT_NOT_FOUND', `no open lot ${fill.lotSeq}`);
  if (!positive(fill.price) || !positive(fill.qty) || !fill.proceeds.isFinite() || fill.proceeds.lt(0)) {
    throw new GridError('INVALID_FILL', `sell fill for lot ${fill.lotSeq} needs a positive price and qty`);
  }
  if (!validDate(fill.at))
    throw new GridError('INVALID_FILL', `sell fill for lot ${fill.lotSeq} needs a date`);
  if (fill.qty.gt(lot.qty)) {
    throw new GridError('SELL_EXCEEDS_LOT', `sell of ${fill.qty} exceeds lot ${lot.seq} qty ${lot.qty}`);
  }
  const whole = fill.qty.eq(lot.qty);
  // Whole sells keep the exact cost; the remainder of a partial sell is cost − share, so Σ cost is conserved.
  const cost = whole ? lot.cost : lot.cost.times(fill.qty).div(lot.qty);
  const closed: ClosedLot = {
    seq: lot.seq,
    buyPrice: lot.price,
    sellPrice: fill.price,
    qty: fill.qty,
    cost,
    proceeds: fill.proceeds,
    pnl: fill.proceeds.minus(cost),
    openedAt: lot.openedAt,
    closedAt: fill.at,
  };
  const lots = whole
    ? state.lots.filter((_, i) => i !== index)
    : state.lots.map((l, i) =>
        i === index ? { ...l, qty: l.qty.minus(fill.qty), cost: l.cost.minus(cost) } : l,
      );
  return { state: { lots, nextSeq: state.nextSeq }, closed };
};
