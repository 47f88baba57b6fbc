import type { Exchange, Trade } from 'ccxt';
import { Decimal } from 'decimal.js';
import { guarded } from './errors';
import { dec, toTrade } from './normalize';
import type { ExchangeTrade } from './types';

const PAGE = 1000;
const MAX_PAGES = 50;

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

/**
 * Our trades in `symbol` since `since` (ms, inclusive), oldest first, every page of them. Pages are
 * chained by time and de-duplicated by id, so trades sharing a millisecond are neither lost nor doubled.
 */
export const fetchMyTrades = async (exchange: Exchange, symbol: string, since?: number): Promise<ExchangeTrade[]> => {
  const byId = new Map<string, Trade>();
  let cursor = since;
  for (let page = 0; page < MAX_PAGES; page++) {
    const batch = await guarded(() => exchange.fetchMyTrades(symbol, cursor, PAGE));
    let added = 0;
    for (const trade of batch) {
      if (!byId.has(String(trade.id))) {
        byId.set(String(trade.id), trade);
        added++;
      }
    }
    const last = batch.at(-1)?.timestamp;
    if (batch.length < PAGE || added === 0 || last === undefined || cursor === undefined) break;
    cursor = last;
  }
  const prices = new Map<string, Decimal | null>();
  const trades: ExchangeTrade[] = [];
  const sorted = [...byId.values()].sort((a, b) => (a.timestamp ?? 0) - (b.timestamp ?? 0));
  for (const raw of sorted) {
    const trade = toTrade(raw);
    trades.push({ ...trade, feeQuote: await feeInQuote(exchange, trade, prices) });
  }
  return trades;
};
