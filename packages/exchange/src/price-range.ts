import type { Exchange } from 'ccxt';
import type { Decimal } from 'decimal.js';
import { guarded } from './errors';
import { dec } from './normalize';

/** The lowest and highest price a symbol traded at over a stretch of time. */
export type TradedRange = { low: Decimal; high: Decimal; source: 'klines' | 'trades' };

/** One page: 1000 one-second klines (Binance weight 2) cover 16 minutes; 1000 trades what they cover. */
const PAGE = 1000;

const extend = (range: { low: Decimal; high: Decimal } | null, low: Decimal, high: Decimal) =>
  range === null
    ? { low, high }
    : { low: low.lt(range.low) ? low : range.low, high: high.gt(range.high) ? high : range.high };

/**
 * The range `symbol` traded in since `since` (ms): from 1-second klines where the exchange has
 * them (Binance spot), else from its public (aggregated) trades; null when it has neither or
 * nothing traded. One request, so the range ends at the page's end (16 minutes of seconds); a
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
