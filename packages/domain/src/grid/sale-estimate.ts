import type Decimal from 'decimal.js';
import { exactDifference, exactSum } from './exact';
import { quoteFeeSellProceeds } from './formulas';
import { costShare } from './lot-sale';
import type { Lot } from './types';

export type SaleEstimate = {
  /** USDT received: quantity × price less the exchange fee. */
  proceeds: Decimal;
  /** The share of the lot's cost the sale closes. */
  cost: Decimal;
  /** The deal's PnL once this sale closes it: its earlier sold parts plus proceeds − cost. */
  pnl: Decimal;
};

/**
 * What selling `qty` of a lot at `price` now would bring, the exchange fee charged in quote
 * (docs/grid.md#deal-controls): the figures the user confirms a "sell now" on. The same lot model
 * as the booking (lot-sale.ts): the cost share of the quantity sold, any rest below one lot step
 * carried with its own share. An estimate: the market sell fills at the book's prices.
 */
export const saleEstimate = (lot: Lot, qty: Decimal, price: Decimal, feePct: Decimal): SaleEstimate => {
  const proceeds = quoteFeeSellProceeds(qty, price, feePct);
  const cost = costShare(lot, qty);
  return { proceeds, cost, pnl: exactSum(lot.realizedPnl, exactDifference(proceeds, cost)) };
};
