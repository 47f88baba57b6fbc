import type { Exchange, Trade } from 'ccxt';
import { Decimal } from 'decimal.js';
import { ExchangeError, guarded } from './errors';
import { dec, toTrade } from './normalize';
import type { ExchangeTrade } from './types';

/**
 * The most own trades one request returns: Binance's myTrades 1000 (rest-api.md), Bybit's
 * /v5/execution/list 100 and OKX's /api/v5/trade/fills 100 (docs/venues/bybit.md#endpoints,
 * docs/venues/okx.md#endpoints); a larger limit is refused (Bybit 10001).
 */
const PAGE_BY_VENUE: Readonly<Record<string, number>> = { binance: 1000, bybit: 100, okx: 100 };
const pageOf = (exchange: Exchange) => PAGE_BY_VENUE[exchange.id] ?? 100;
const DAY_MS = 86_400_000;
/** Binance serves own trades in windows of at most 24 h; 90 of them is a quarter, ~1800 request weight. */
const MAX_WINDOWS = 90;

/** The fee in quote currency: exact for base/quote fees, at FEE/QUOTE's last price for others (BNB). */
const feeInQuote = async (
  exchange: Exchange,
  trade: Omit<ExchangeTrade, 'feeQuote'>,
  prices: Map<string, Decimal | null>,
): Promise<Decimal | null> => {
  if (!trade.fee) return new Decimal(0);
  const market = exchange.market(trade.symbol);
  if (trade.fee.currency === market.quote) return trade.fee.cost;
  if (trade.fee.currency === market.base) return trade.fee.cost.mul(trade.price);
  const pair = `${trade.fee.currency}/${market.quote}`;
  if (!prices.has(pair)) {
    const known = exchange.markets?.[pair] !== undefined;
    prices.set(pair, known ? dec((await guarded(() => exchange.fetchTicker(pair))).last) : null);
  }
  const rate = prices.get(pair);
  return rate ? trade.fee.cost.mul(rate) : null;
};

export const normalizeTrades = async (exchange: Exchange, raw: Trade[]): Promise<ExchangeTrade[]> => {
  const prices = new Map<string, Decimal | null>();
  const trades: ExchangeTrade[] = [];
  const sorted = [...raw].sort((a, b) => (a.timestamp ?? 0) - (b.timestamp ?? 0));
  for (const item of sorted) {
    const trade = toTrade(item);
    trades.push({ ...trade, feeQuote: await feeInQuote(exchange, trade, prices) });
  }
  return trades;
};

/** Every page of one time window [from, until], chained by time and de-duplicated by id. */
const fetchWindow = async (
  exchange: Exchange,
  symbol: string,
  from: number,
  until: number,
  into: Map<string, Trade>,
): Promise<void> => {
  let cursor = from;
  for (;;) {
    const batch = await guarded(() => exchange.fetchMyTrades(symbol, cursor, pageOf(exchange), { until }));
    let added = 0;
    for (const trade of batch) {
      if (into.has(String(trade.id))) continue;
      into.set(String(trade.id), trade);
      added++;
    }
    const last = batch.at(-1)?.timestamp;
    if (batch.length < pageOf(exchange) || added === 0 || last === undefined) return;
    cursor = last;
  }
};

/**
 * Our trades in `symbol` since `since` (ms, inclusive), oldest first: walked in 24-hour windows
 * (Binance's limit, inside Bybit's 7 days), every page of each. Without `since`, the most recent page.
 */
export const fetchMyTrades = async (
  exchange: Exchange,
  symbol: string,
  since?: number,
): Promise<ExchangeTrade[]> => {
  if (since === undefined)
    return normalizeTrades(
      exchange,
      await guarded(() => exchange.fetchMyTrades(symbol, undefined, pageOf(exchange))),
    );
  const now = Date.now();
  if (now - since > MAX_WINDOWS * DAY_MS) {
    throw new ExchangeError(
      'ORDER_REJECTED',
      `fetchMyTrades: since is over ${MAX_WINDOWS} days ago; use fetchOrderTrades`,
    );
  }
  const byId = new Map<string, Trade>();
  for (let from = since; from <= now; from += DAY_MS) {
    await fetchWindow(exchange, symbol, from, Math.min(from + DAY_MS - 1, now), byId);
  }
  return normalizeTrades(exchange, [...byId.values()]);
};

/** The fills of one order (Binance: GET myTrades?orderId=…), whatever their age. */
export const fetchOrderTrades = async (
  exchange: Exchange,
  symbol: string,
  orderId: string,
): Promise<ExchangeTrade[]> => {
  if (exchange.has.fetchOrderTrades !== true) {
    throw new ExchangeError('EXCHANGE_UNSUPPORTED', `${exchange.id} cannot list the trades of one order`);
  }
  return normalizeTrades(exchange, await guarded(() => exchange.fetchOrderTrades(orderId, symbol)));
};
