import type { Ticker as CcxtTicker, Market, Order, Trade } from 'ccxt';
import { Decimal } from 'decimal.js';
import type {
  ExchangeOrder,
  ExchangeTrade,
  MarketInfo,
  OrderKind,
  OrderStatus,
  PercentPriceBySide,
  Ticker,
} from './types';

/**
 * ccxt structures → ours. The ccxt instance parses numbers with `String`, so every amount arrives
 * as a decimal string (typed `number` by ccxt) and becomes a Decimal without passing through a float.
 */
export const dec = (value: unknown): Decimal | null => {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const parsed = new Decimal(String(value));
  return parsed.isFinite() ? parsed : null;
};

const decOrZero = (value: unknown): Decimal => dec(value) ?? new Decimal(0);

const STATUSES: readonly OrderStatus[] = ['open', 'closed', 'canceled', 'expired', 'rejected'];

const orderStatus = (status: string | undefined): OrderStatus =>
  STATUSES.includes(status as OrderStatus) ? (status as OrderStatus) : 'open';

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

type RawFilter = Record<string, unknown> & { filterType?: unknown };

/** The exchange's own symbol filters (Binance: exchangeInfo `filters`, kept by ccxt in `info`). */
const rawFilters = (market: NonNullable<Market>): RawFilter[] => {
  const filters = (market.info as { filters?: unknown } | undefined)?.filters;
  return Array.isArray(filters)
    ? filters.filter((f): f is RawFilter => typeof f === 'object' && f !== null)
    : [];
};

const filterOf = (market: NonNullable<Market>, type: string) =>
  rawFilters(market).find((f) => f.filterType === type);

/** MAX_NUM_ORDERS (Binance spot API docs, filters.md#max_num_orders): `maxNumOrders`, older listings `limit`. */
const maxNumOrdersOf = (market: NonNullable<Market>): number | null => {
  const filter = filterOf(market, 'MAX_NUM_ORDERS');
  const value = Number(filter?.maxNumOrders ?? filter?.limit);
  return Number.isSafeInteger(value) && value > 0 ? value : null;
};

/** PERCENT_PRICE_BY_SIDE (filters.md#percent_price_by_side), only when every multiplier is there. */
const percentPriceBySideOf = (market: NonNullable<Market>): PercentPriceBySide | null => {
  const filter = filterOf(market, 'PERCENT_PRICE_BY_SIDE');
  if (!filter) return null;
  const bidMultiplierUp = dec(filter.bidMultiplierUp);
  const bidMultiplierDown = dec(filter.bidMultiplierDown);
  const askMultiplierUp = dec(filter.askMultiplierUp);
  const askMultiplierDown = dec(filter.askMultiplierDown);
  if (!bidMultiplierUp || !bidMultiplierDown || !askMultiplierUp || !askMultiplierDown) return null;
  const avgPriceMins = Number(filter.avgPriceMins ?? 0);
  return {
    bidMultiplierUp,
    bidMultiplierDown,
    askMultiplierUp,
    askMultiplierDown,
    avgPriceMins: Number.isFinite(avgPriceMins) ? avgPriceMins : 0,
  };
};

/** `statusField`: where the venue's market says whether it trades (its table's `markets.statusField`). */
export const toMarketInfo = (market: NonNullable<Market>, statusField = 'status'): MarketInfo => ({
  symbol: market.symbol,
  id: String(market.id),
  base: market.base,
  quote: market.quote,
  active: market.active !== false,
  status: str((market.info as Record<string, unknown> | undefined)?.[statusField]),
  tickSize: decOrZero(market.precision.price),
  stepSize: decOrZero(market.precision.amount),
  minQty: dec(market.limits.amount?.min),
  minNotional: dec(market.limits.cost?.min),
  maxNumOrders: maxNumOrdersOf(market),
  percentPriceBySide: percentPriceBySideOf(market),
});

export const toOrder = (order: Order, knownClientOrderId?: string): ExchangeOrder => {
  const info = (order.info ?? {}) as Record<string, unknown>;
  const type: OrderKind = order.type === 'market' ? 'market' : 'limit';
  const amount = decOrZero(order.amount);
  const filled = decOrZero(order.filled);
  return {
    id: String(order.id),
    // A Binance cancel answer carries the cancel request's own id in clientOrderId.
    clientOrderId: knownClientOrderId ?? str(info.origClientOrderId) ?? str(order.clientOrderId),
    symbol: String(order.symbol),
    side: order.side === 'sell' ? 'sell' : 'buy',
    type,
    status: orderStatus(order.status),
    price: type === 'limit' ? dec(order.price) : null,
    average: filled.gt(0) ? dec(order.average) : null,
    amount,
    filled,
    remaining: dec(order.remaining) ?? Decimal.max(amount.sub(filled), 0),
    cost: decOrZero(order.cost),
    timestamp: order.timestamp ?? null,
    lastUpdateTimestamp: order.lastUpdateTimestamp ?? null,
  };
};

/** feeQuote is filled in by the caller (it may need another market's price). */
export const toTrade = (trade: Trade): Omit<ExchangeTrade, 'feeQuote'> => {
  const fee =
    trade.fee && dec(trade.fee.cost)
      ? { cost: dec(trade.fee.cost)!, currency: String(trade.fee.currency) }
      : null;
  const price = decOrZero(trade.price);
  const amount = decOrZero(trade.amount);
  return {
    id: String(trade.id),
    orderId: String(trade.order),
    clientOrderId: str((trade.info as Record<string, unknown> | undefined)?.clientOrderId),
    symbol: String(trade.symbol),
    side: trade.side === 'sell' ? 'sell' : 'buy',
    price,
    amount,
    cost: dec(trade.cost) ?? price.mul(amount),
    fee,
    takerOrMaker:
      trade.takerOrMaker === 'maker' || trade.takerOrMaker === 'taker' ? trade.takerOrMaker : null,
    timestamp: trade.timestamp ?? 0,
  };
};

export const toTicker = (ticker: CcxtTicker): Ticker => ({
  symbol: String(ticker.symbol),
  last: decOrZero(ticker.last ?? ticker.close),
  bid: dec(ticker.bid),
  ask: dec(ticker.ask),
  quoteVolume: dec(ticker.quoteVolume),
  changePct: dec(ticker.percentage),
  timestamp: ticker.timestamp ?? null,
});

/** Our decimals → what ccxt takes as amounts: decimal strings (ccxt's precision code accepts them). */
export const ccxtAmount = (value: Decimal | string): number => {
  const text = typeof value === 'string' ? new Decimal(value).toFixed() : value.toFixed();
  return text as unknown as number;
};
