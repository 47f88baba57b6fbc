import { GridError } from './errors';
import { openLot, type SellOptions, sellFromLot } from './lot-sale';
import type { BuyFill, ClosedLot, GridState, SellFill } from './types';

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
  const lot = openLot(fill);
  return { lots: [...state.lots, lot], nextSeq: fill.seq + 1 };
};

/**
 * Records a sell against one lot through the lot model (lot-sale.ts, docs/pnl.md). Partial sells
 * are supported: the sold part closes with its share of the cost and the rest of the lot stays
 * open (its take profit re-planned for the remaining qty). A sale that closes the lot removes it,
 * so re-applying that fill throws LOT_NOT_FOUND; partial fills cannot be recognised here, so the
 * caller applies each exchange trade once (by trade id).
 */
export const applySellFill = (
  state: GridState,
  fill: SellFill,
  options: SellOptions = {},
): { state: GridState; closed: ClosedLot } => {
  const index = state.lots.findIndex((lot) => lot.seq === fill.lotSeq);
  const lot = state.lots[index];
  if (!lot) throw new GridError('LOT_NOT_FOUND', `no open lot ${fill.lotSeq}`);
  const sale = sellFromLot(lot, fill, options);
  const rest = sale.lot;
  const lots = rest
    ? state.lots.map((l, i) => (i === index ? rest : l))
    : state.lots.filter((_, i) => i !== index);
  return { state: { lots, nextSeq: state.nextSeq }, closed: sale.sold };
};
