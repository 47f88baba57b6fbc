import Decimal from 'decimal.js';
import { averagingStepPct, takeProfitPrice } from './formulas';
import type { GridSettings } from './types';

/*
 * The exchange's symbol filters the grid must respect beyond one order's price and size
 * (docs/grid.md#exchange-filters). Binance spot API docs, filters.md: LOT_SIZE, NOTIONAL,
 * MAX_NUM_ORDERS, PERCENT_PRICE_BY_SIDE. Pure: the caller reads them from the market.
 */

/** What decides whether a quantity can be a limit order (LOT_SIZE and NOTIONAL / MIN_NOTIONAL). */
export type OrderMinimums = {
  /** LOT_SIZE stepSize: quantities are truncated to it (0: no step). */
  stepSize: Decimal;
  /** LOT_SIZE minQty. */
  minQty: Decimal | null;
  /** NOTIONAL (or MIN_NOTIONAL) minNotional: price × quantity at least this. */
  minNotional: Decimal | null;
};

/** PERCENT_PRICE_BY_SIDE (filters.md#percent_price_by_side): the price band around the average price, per side. */
export type PercentPriceBySide = {
  bidMultiplierUp: Decimal;
  bidMultiplierDown: Decimal;
  askMultiplierUp: Decimal;
  askMultiplierDown: Decimal;
  /** Minutes of the weighted average price the band is around (0: the last price). */
  avgPriceMins: number;
};

/** `qty` truncated to the lot step, as it would be sent (ccxt's amountToPrecision truncates). */
const onStep = (qty: Decimal, stepSize: Decimal) =>
  stepSize.gt(0) ? qty.div(stepSize).floor().times(stepSize) : qty;

/** Would the exchange accept a limit order of `qty` at `price`: a positive quantity on the lot step, at least minQty and minNotional. */
export const isOrderableQty = (qty: Decimal, price: Decimal, market: OrderMinimums): boolean => {
  const sent = onStep(qty, market.stepSize);
  if (sent.lte(0)) return false;
  if (market.minQty && sent.lt(market.minQty)) return false;
  return !(market.minNotional && sent.times(price).lt(market.minNotional));
};

/**
 * Can `qty` bought at `lotPrice` be a lot of its own: would its take profit at these settings be
 * an order the exchange accepts? A remainder that cannot is carried into the next lot
 * (docs/grid.md#remainders), never left as a lot without an order.
 */
export const isOrderableLot = (
  qty: Decimal,
  lotPrice: Decimal,
  settings: GridSettings,
  market: OrderMinimums,
): boolean => isOrderableQty(qty, takeProfitPrice(lotPrice, settings), market);

/**
 * MAX_NUM_ORDERS (filters.md#max_num_orders) counts an account's open orders on the symbol. A coin
 * bot with k open lots rests k take profits and, below the limit, one buy: at most N orders, so
 * the purchase limit N may not exceed the filter.
 */
export const exceedsOpenOrderLimit = (maxTrades: number, maxNumOrders: number | null): boolean =>
  maxNumOrders !== null && maxTrades > maxNumOrders;

/** The largest drop below its reference a buy may have: (1 − bidMultiplierDown) × 100 %. */
export const maxBuyDropPct = (filter: Pick<PercentPriceBySide, 'bidMultiplierDown'>): Decimal =>
  new Decimal(1).minus(filter.bidMultiplierDown).times(100);

export type DeepBuyBreach = {
  /** The first lot whose averaging buy Binance would refuse (2 … N). */
  lotNumber: number;
  /** That buy's drop below the lot before it, %. */
  stepPct: Decimal;
  /** The largest drop the filter accepts, %. */
  maxStepPct: Decimal;
};

/**
 * PERCENT_PRICE_BY_SIDE on the ladder's buys: a buy passes when its price ≥ weightedAveragePrice ×
 * bidMultiplierDown. An averaging buy is placed as soon as the lot before it filled, so the
 * average price of the last minutes is about that lot's price: the buy opening lot k + 1 drops
 * s + (k − 1) × d below it, and the deepest one (lot N) must not drop more than
 * (1 − bidMultiplierDown) × 100 %. Null when every level passes (or N = 1: no averaging buy).
 */
export const deepBuyBreach = (
  settings: GridSettings,
  filter: Pick<PercentPriceBySide, 'bidMultiplierDown'>,
): DeepBuyBreach | null => {
  const maxStepPct = maxBuyDropPct(filter);
  // Steps grow with k (d ≥ 0): the first level past the limit is found by walking up from lot 2.
  const deepest = averagingStepPct(settings, settings.maxTrades - 1);
  if (settings.maxTrades < 2 || deepest.lte(maxStepPct)) return null;
  for (let k = 1; k < settings.maxTrades; k += 1) {
    const stepPct = averagingStepPct(settings, k);
    if (stepPct.gt(maxStepPct)) return { lotNumber: k + 1, stepPct, maxStepPct };
  }
  return null;
};
