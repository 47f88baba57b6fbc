import Decimal from 'decimal.js';
import { exactProduct, exactSum, oneMinusPct, onePlusPct } from './exact';
import type { GridSettings, Lot } from './types';

/*
 * The grid's price and money formulas (docs/grid.md), the single source of truth for the planner,
 * the ladder preview, live fills and the replay. Prices, costs and proceeds are products of finite
 * decimals and are computed exactly (exact.ts): a take profit or a deep ladder level is the exact
 * decimal, so the replay decides touches exactly and a break-even lot is exactly 0
 * (docs/pnl.md). Only a quantity bought for a quote amount (S / p) is a division, rounded to
 * decimal.js's default 20 significant digits. The domain never changes the global configuration.
 */

/** Drop, in %, of the averaging buy placed while k lots are open: s + (k − 1) × d. */
export const averagingStepPct = (settings: GridSettings, openLots: number): Decimal =>
  exactSum(settings.stepPct, exactProduct(settings.stepIncreasePct, openLots - 1));

/** 1 − (s + (k − 1) × d) / 100: the factor from the newest lot's price to the next buy. */
export const averagingFactor = (settings: GridSettings, openLots: number): Decimal =>
  oneMinusPct(averagingStepPct(settings, openLots));

/** B = p_last × (1 − (s + (k − 1) × d) / 100), the buy that would open lot k + 1 (exact). */
export const averagingBuyPrice = (lastLotPrice: Decimal, settings: GridSettings, openLots: number): Decimal =>
  exactProduct(lastLotPrice, averagingFactor(settings, openLots));

/** T = p × (1 + s / 100) (exact). */
export const takeProfitPrice = (buyPrice: Decimal, settings: GridSettings): Decimal =>
  exactProduct(buyPrice, onePlusPct(settings.stepPct));

/**
 * A buy of S at price p when the fee is charged in quote (replay, previews): q = S / p (rounded
 * to 20 significant digits), c = S × (1 + fee/100) (exact).
 */
export const quoteFeeBuy = (
  orderSize: Decimal,
  price: Decimal,
  feePct: Decimal,
): { qty: Decimal; cost: Decimal } => ({
  qty: orderSize.div(price),
  cost: exactProduct(orderSize, onePlusPct(feePct)),
});

/** A sell of a known quantity q at price T when the fee is charged in quote: q × T × (1 − fee/100), exact. */
export const quoteFeeSellProceeds = (qty: Decimal, price: Decimal, feePct: Decimal): Decimal =>
  exactProduct(qty, price, oneMinusPct(feePct));

/**
 * Proceeds of selling the whole lot that quoteFeeBuy(S, p) bought, at T: q × T × (1 − fee/100)
 * with q × T taken as S × (T / p), so the rounding of q = S / p never enters. For a take profit
 * T / p = 1 + s/100 is a short decimal, so the proceeds are exact and the lot's PnL,
 * S × [(1 + s/100)(1 − f/100) − (1 + f/100)], has its exact sign whatever the price.
 */
export const quoteFeeLotProceeds = (
  orderSize: Decimal,
  buyPrice: Decimal,
  sellPrice: Decimal,
  feePct: Decimal,
): Decimal => exactProduct(orderSize, sellPrice.div(buyPrice), oneMinusPct(feePct));

/**
 * Σq and Σc of lots, summed oldest first (exact sums). Stats and replay both sum in this order,
 * so their figures agree to the last digit.
 */
export const lotTotals = (lots: readonly Lot[]): { qty: Decimal; cost: Decimal } => {
  let qty = new Decimal(0);
  let cost = new Decimal(0);
  for (const lot of lots) {
    qty = exactSum(qty, lot.qty);
    cost = exactSum(cost, lot.cost);
  }
  return { qty, cost };
};
