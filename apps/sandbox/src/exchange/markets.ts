import { binance } from '@gridbot/venues';
import type { Decimal } from 'decimal.js';
import { type Liquidity, type LiquiditySpec, toLiquidity } from './liquidity';
import { Dec, fmt8, isMultipleOf, parsePositive } from './money';
import { refuse } from './refusal';

/**
 * Binance's PERCENT_PRICE_BY_SIDE filter (filters.md#percent_price_by_side) as a config gives it:
 * multipliers as decimal strings, `avgPriceMins` the minutes of the average price (0: the last price).
 */
export type PercentPriceBySideSpec = {
  bidMultiplierUp: string;
  bidMultiplierDown: string;
  askMultiplierUp: string;
  askMultiplierDown: string;
  avgPriceMins: number;
};

/** What Binance lists on its major USDT pairs (BTCUSDT, ETHUSDT: exchangeInfo, 2025). */
export const DEFAULT_PERCENT_PRICE_BY_SIDE: PercentPriceBySideSpec = {
  bidMultiplierUp: '5',
  bidMultiplierDown: '0.2',
  askMultiplierUp: '5',
  askMultiplierDown: '0.2',
  avgPriceMins: 5,
};

export type PercentPriceBySide = {
  bidMultiplierUp: Decimal;
  bidMultiplierDown: Decimal;
  askMultiplierUp: Decimal;
  askMultiplierDown: Decimal;
  avgPriceMins: number;
};

/** How a market is described to the sandbox (decimal strings, like Binance's filters). */
export type MarketSpec = {
  base: string;
  quote: string;
  tickSize: string;
  stepSize: string;
  minQty?: string;
  maxQty?: string;
  minNotional?: string;
  maxPrice?: string;
  /** MAX_NUM_ORDERS: open orders per account on the symbol (default Binance's 200). */
  maxNumOrders?: number;
  percentPriceBySide?: PercentPriceBySideSpec;
  /** How much trades per price level and step (liquidity.ts; default DEFAULT_LIQUIDITY). */
  liquidity?: LiquiditySpec;
};

/**
 * Binance's symbol statuses (Binance spot API docs, enums.md#symbol-status-status): only TRADING
 * takes new orders; the others answer -2010 "Market is closed." (errors.md#other-errors).
 */
export const SYMBOL_STATUSES = [
  'PRE_TRADING',
  'TRADING',
  'POST_TRADING',
  'END_OF_DAY',
  'HALT',
  'AUCTION_MATCH',
  'BREAK',
] as const;
export type SymbolStatus = (typeof SYMBOL_STATUSES)[number];

/** Filters the control API may change at run time, as Binance does (decimal strings). */
export type MarketFilterChange = {
  tickSize?: string;
  stepSize?: string;
  minQty?: string;
  minNotional?: string;
};

/** A market with its filters parsed. `symbol` is Binance's id, e.g. "BTCUSDT". */
export type Market = {
  symbol: string;
  status: SymbolStatus;
  base: string;
  quote: string;
  tickSize: Decimal;
  stepSize: Decimal;
  minQty: Decimal;
  maxQty: Decimal;
  minNotional: Decimal;
  minPrice: Decimal;
  maxPrice: Decimal;
  maxNumOrders: number;
  percentPriceBySide: PercentPriceBySide;
  /** Changeable while the sandbox runs (control API), so tests can make fills whole or partial. */
  liquidity: Liquidity;
};

export const toMarket = (spec: MarketSpec): Market => {
  const base = spec.base.toUpperCase();
  const quote = spec.quote.toUpperCase();
  const tickSize = new Dec(spec.tickSize);
  const stepSize = new Dec(spec.stepSize);
  return {
    symbol: `${base}${quote}`,
    status: 'TRADING',
    base,
    quote,
    tickSize,
    stepSize,
    minQty: new Dec(spec.minQty ?? spec.stepSize),
    maxQty: new Dec(spec.maxQty ?? '9000000000'),
    minNotional: new Dec(spec.minNotional ?? '5'),
    minPrice: tickSize,
    maxPrice: new Dec(spec.maxPrice ?? '1000000'),
    maxNumOrders: maxNumOrders(spec.maxNumOrders),
    percentPriceBySide: percentPriceBySide(spec.percentPriceBySide ?? DEFAULT_PERCENT_PRICE_BY_SIDE),
    liquidity: toLiquidity(spec.liquidity),
  };
};

const maxNumOrders = (value = binance.defaultMaxOpenOrdersPerSymbol): number => {
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`maxNumOrders must be a positive integer, got ${value}`);
  return value;
};

const percentPriceBySide = (spec: PercentPriceBySideSpec): PercentPriceBySide => {
  if (!Number.isInteger(spec.avgPriceMins) || spec.avgPriceMins < 0) {
    throw new Error(`percentPriceBySide.avgPriceMins must be an integer ≥ 0, got ${spec.avgPriceMins}`);
  }
  return {
    bidMultiplierUp: parsePositive('bidMultiplierUp', spec.bidMultiplierUp),
    bidMultiplierDown: parsePositive('bidMultiplierDown', spec.bidMultiplierDown),
    askMultiplierUp: parsePositive('askMultiplierUp', spec.askMultiplierUp),
    askMultiplierDown: parsePositive('askMultiplierDown', spec.askMultiplierDown),
    avgPriceMins: spec.avgPriceMins,
  };
};

/** One entry of `symbols` in GET /api/v3/exchangeInfo, shaped like Binance's (ccxt's parseMarket reads it). */
export const exchangeInfoSymbol = (market: Market) => ({
  symbol: market.symbol,
  status: market.status,
  baseAsset: market.base,
  baseAssetPrecision: 8,
  quoteAsset: market.quote,
  quotePrecision: 8,
  quoteAssetPrecision: 8,
  baseCommissionPrecision: 8,
  quoteCommissionPrecision: 8,
  orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET'],
  icebergAllowed: false,
  ocoAllowed: false,
  otoAllowed: false,
  quoteOrderQtyMarketAllowed: true,
  allowTrailingStop: false,
  cancelReplaceAllowed: false,
  isSpotTradingAllowed: true,
  isMarginTradingAllowed: false,
  filters: [
    {
      filterType: 'PRICE_FILTER',
      minPrice: fmt8(market.minPrice),
      maxPrice: fmt8(market.maxPrice),
      tickSize: fmt8(market.tickSize),
    },
    {
      filterType: 'LOT_SIZE',
      minQty: fmt8(market.minQty),
      maxQty: fmt8(market.maxQty),
      stepSize: fmt8(market.stepSize),
    },
    {
      filterType: 'NOTIONAL',
      minNotional: fmt8(market.minNotional),
      applyMinToMarket: true,
      maxNotional: '9000000.00000000',
      applyMaxToMarket: false,
      avgPriceMins: 5,
    },
    {
      filterType: 'PERCENT_PRICE_BY_SIDE',
      bidMultiplierUp: market.percentPriceBySide.bidMultiplierUp.toFixed(),
      bidMultiplierDown: market.percentPriceBySide.bidMultiplierDown.toFixed(),
      askMultiplierUp: market.percentPriceBySide.askMultiplierUp.toFixed(),
      askMultiplierDown: market.percentPriceBySide.askMultiplierDown.toFixed(),
      avgPriceMins: market.percentPriceBySide.avgPriceMins,
    },
    { filterType: 'MAX_NUM_ORDERS', maxNumOrders: market.maxNumOrders },
  ],
  permissions: [],
  permissionSets: [['SPOT']],
  defaultSelfTradePreventionMode: 'EXPIRE_MAKER',
  allowedSelfTradePreventionModes: ['EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH'],
});

/**
 * New filters for a listed market (Binance changes a symbol's tick or lot step now and then; the
 * orders resting keep their price, new ones must follow the new grid). minQty follows a new
 * stepSize unless given; minPrice is the tick.
 */
export const changeFilters = (market: Market, change: MarketFilterChange): void => {
  if (change.tickSize !== undefined) {
    market.tickSize = positive('tickSize', change.tickSize);
    market.minPrice = market.tickSize;
  }
  if (change.stepSize !== undefined) {
    market.stepSize = positive('stepSize', change.stepSize);
    if (change.minQty === undefined) market.minQty = market.stepSize;
  }
  if (change.minQty !== undefined) market.minQty = positive('minQty', change.minQty);
  if (change.minNotional !== undefined) market.minNotional = new Dec(change.minNotional);
};

const positive = (name: string, value: string): Decimal => {
  const parsed = new Dec(value);
  if (!parsed.isFinite() || parsed.lte(0)) throw new Error(`${name} must be a positive decimal`);
  return parsed;
};

/** New orders only while the symbol is TRADING (errors.md#other-errors: "Market is closed."). */
export const checkTrading = (market: Market): void => {
  if (market.status !== 'TRADING') throw refuse({ kind: 'marketClosed' });
};

/** PRICE_FILTER: within [minPrice, maxPrice] and on the tick grid. */
export const checkPriceFilter = (market: Market, price: Decimal): void => {
  if (price.lt(market.minPrice) || price.gt(market.maxPrice) || !isMultipleOf(price, market.tickSize)) {
    throw refuse({ kind: 'price' });
  }
};

/** LOT_SIZE: within [minQty, maxQty] and on the step grid. */
export const checkLotSize = (market: Market, quantity: Decimal): void => {
  if (quantity.lt(market.minQty) || quantity.gt(market.maxQty) || !isMultipleOf(quantity, market.stepSize)) {
    throw refuse({ kind: 'quantity' });
  }
};

/** NOTIONAL: price × quantity at least minNotional (applied to market orders too). */
export const checkNotional = (market: Market, price: Decimal, quantity: Decimal): void => {
  if (price.mul(quantity).lt(market.minNotional)) throw refuse({ kind: 'notional' });
};

/**
 * PERCENT_PRICE_BY_SIDE (filters.md#percent_price_by_side): a bid within [avg × bidMultiplierDown,
 * avg × bidMultiplierUp], an ask within [avg × askMultiplierDown, avg × askMultiplierUp], `avg` the
 * average price over the filter's `avgPriceMins` (errors.md#filter-failures).
 */
export const checkPercentPriceBySide = (
  market: Market,
  side: 'BUY' | 'SELL',
  price: Decimal,
  averagePrice: Decimal,
): void => {
  const f = market.percentPriceBySide;
  const [down, up] =
    side === 'BUY' ? [f.bidMultiplierDown, f.bidMultiplierUp] : [f.askMultiplierDown, f.askMultiplierUp];
  const crossed = price.lt(averagePrice.mul(down))
    ? averagePrice.mul(down)
    : price.gt(averagePrice.mul(up))
      ? averagePrice.mul(up)
      : undefined;
  if (crossed) {
    const limit = crossed.toDecimalPlaces(market.tickSize.decimalPlaces()).toFixed();
    throw refuse({ kind: 'priceBand', side, limit });
  }
};

/** MAX_NUM_ORDERS (filters.md#max_num_orders): the account's open orders on the symbol, the new one included. */
export const checkMaxNumOrders = (market: Market, openOnSymbol: number): void => {
  if (openOnSymbol >= market.maxNumOrders) throw refuse({ kind: 'maxOpenOrders' });
};
