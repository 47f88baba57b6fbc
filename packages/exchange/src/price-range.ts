import type { Exchange } from 'ccxt';
import type { Decimal } from 'decimal.js';
import { guarded } from './errors';
import { dec } from './normalize';

/** The lowest and highest price a symbol traded at over a stretch of time. */
export type TradedRange = { low: Decimal; high: Decimal; source: 'klines' | 'trades' };

/** One page: 1000 one-second klines (Binance weight 2) cover 16 minutes; 1000 trades what they cover. */
const PAGE = 1000;
const MINUTE = 60_000;
/** 1-minute klines asked at most at once: OKX serves up to 300, Bybit 1000 (docs/venues/*.md#endpoints). */
const MINUTE_PAGE = 300;

const extend = (range: { low: Decimal; high: Decimal } | null, low: Decimal, high: Decimal) =>
  range === null
    ? { low, high }
    : { low: low.lt(range.low) ? low : range.low, high: high.gt(range.high) ? high : range.high };

/**
 * The range `symbol` traded in since `since` (ms): from 1-second klines where the exchange has
 * them (Binance spot), else 1-minute klines (Bybit, OKX), else its public (aggregated) trades; null
 * when it has none of them or nothing traded. One request, so the range ends at the page's end (16 minutes of seconds); a
 * scan that falls further behind than that is what the sweep is for (docs/grid.md#triggers).
 */
export const fetchTradedRange = async (
  exchange: Exchange,
  symbol: string,
  since: number,
): Promise<TradedRange | null> => {
  if (exchange.has.fetchOHLCV && exchange.timeframes?.['1s'] !== undefined) {
    const candles = await guarded(() => exchange.fetchOHLCV(symbol, '1s', since, PAGE));
    let range: { low: Decimal; high: Decimal } | null = null;
    for (const [, , high, low] of candles) {
      const h = dec(high);
      const l = dec(low);
      if (h && l) range = extend(range, l, h);
    }
    return range && { ...range, source: 'klines' };
  }
  if (exchange.has.fetchOHLCV && exchange.timeframes?.['1m'] !== undefined) {
    // Venues without 1-second klines (Bybit, OKX): 1-minute klines from the minute `since` falls
    // in, every extreme of the stretch inside them (a venue's page of public trades may hold only
    // its last 60 or 100). The minute's part before `since` widens the range: at worst a crossing
    // is found twice, which costs a reconcile that changes nothing (docs/grid.md#triggers).
    const minutes = Math.ceil((exchange.milliseconds() - since) / MINUTE) + 1;
    const from = since - (since % MINUTE);
    const candles = await guarded(() =>
      exchange.fetchOHLCV(symbol, '1m', from, Math.min(Math.max(minutes, 1), MINUTE_PAGE)),
    );
    let range: { low: Decimal; high: Decimal } | null = null;
    for (const [, , high, low] of candles) {
      const h = dec(high);
      const l = dec(low);
      if (h && l) range = extend(range, l, h);
    }
    return range && { ...range, source: 'klines' };
  }
  if (exchange.has.fetchTrades) {
    const trades = await guarded(() => exchange.fetchTrades(symbol, since, PAGE));
    let range: { low: Decimal; high: Decimal } | null = null;
    for (const trade of trades) {
      const price = dec(trade.price);
      if (price) range = extend(range, price, price);
    }
    return range && { ...range, source: 'trades' };
  }
  return null;
};
