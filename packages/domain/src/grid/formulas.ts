import Decimal from 'decimal.js';
import type { GridSettings, Lot } from './types';

/*
 * The grid's price formulas (DESIGN §3), the single source of truth for the planner, the ladder
 * preview and the replay. decimal.js at its default precision (20 significant digits); the domain
 * never changes the global Decimal configuration.
 */

const ONE = new Decimal(1);
const HUNDRED = new Decimal(100);

/** Drop, in %, of the averaging buy placed while k lots are open: s + (k − 1) × d. */
export const averagingStepPct = (settings: GridSettings, openLots: number): Decimal =>
  settings.stepPct.plus(settings.stepIncreasePct.times(openLots - 1));

/** B = p_last × (1 − (s + (k − 1) × d) / 100), the buy that would open lot k + 1. */
export const averagingBuyPrice = (lastLotPrice: Decimal, settings: GridSettings, openLots: number): Decimal =>
  lastLotPrice.times(ONE.minus(averagingStepPct(settings, openLots).div(HUNDRED)));

/** T = p × (1 + s / 100). */
export const takeProfitPrice = (buyPrice: Decimal, settings: GridSettings): Decimal =>
  buyPrice.times(ONE.plus(settings.stepPct.div(HUNDRED)));

/** A buy of S at price p when the fee is charged in quote (replay, previews): q = S / p, c = S × (1 + fee/100). */
export const quoteFeeBuy = (
  orderSize: Decimal,
  price: Decimal,
  feePct: Decimal,
): { qty: Decimal; cost: Decimal } => ({
  qty: orderSize.div(price),
  cost: orderSize.times(ONE.plus(feePct.div(HUNDRED))),
});

/** A sell of q at price T when the fee is charged in quote: q × T × (1 − fee/100). */
export const quoteFeeSellProceeds = (qty: Decimal, price: Decimal, feePct: Decimal): Decimal =>
  qty.times(price).times(ONE.minus(feePct.div(HUNDRED)));

/**
 * Σq and Σc of lots, summed oldest first. Stats and replay both sum in this order, so their
 * figures agree to the last digit.
 */
export const lotTotals = (lots: readonly Lot[]): { qty: Decimal; cost: Decimal } => {
  let qty = new Decimal(0);
  let cost = new Decimal(0);
  for (const lot of lots) {
    qty = qty.plus(lot.qty);
    cost = cost.plus(lot.cost);
  }
  return { qty, cost };
};
