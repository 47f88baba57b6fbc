import type { Decimal } from 'decimal.js';
import type { FastifyInstance } from 'fastify';
import { binanceErrors } from '../binance-error';
import type { SandboxTrade } from '../matching-engine';
import { Dec, floorToStep, fmt8 } from '../money';
import { integerParam, limitParam, required } from '../order-params';
import type { MarketState, SandboxExchange } from '../sandbox-exchange';
import { type Params, requestParams } from '../signed-request';

/** Each synthetic level holds about this much quote currency (the sandbox has no other traders). */
const LEVEL_QUOTE = new Dec(10_000);
/** Synthetic levels sit this fraction of the price apart (one tick when the tick is coarser). */
const LEVEL_GAP = new Dec('0.0001');

type Level = [Decimal, Decimal];

/** GET /api/v3/depth `limit`: default 100, at most 5000 (more is cut to 5000). rest-api.md "Order book". */
const depthLimit = (params: Params): number => {
  const raw = params.get('limit');
  if (raw === null) return 100;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw binanceErrors.illegalChars('limit', '^[0-9]{1,4}$');
  return Math.min(Number(raw), 5000);
};

/**
 * The order book of a market: every account's resting orders, plus a synthetic book around the
 * last price standing for the traders the sandbox does not have (`limit` levels a side, about
 * 10,000 quote each, 0.01 % apart; best bid at the price, best ask one gap above).
 */
const orderBook = (exchange: SandboxExchange, state: MarketState, limit: number) => {
  const { market, price } = state;
  const gap = Dec.max(market.tickSize, floorToStep(price.mul(LEVEL_GAP), market.tickSize));
  const bids = new Map<string, Level>();
  const asks = new Map<string, Level>();
  const add = (side: Map<string, Level>, at: Decimal, qty: Decimal) => {
    if (at.lte(0) || qty.lte(0)) return;
    const level = side.get(at.toFixed()) ?? [at, new Dec(0)];
    side.set(at.toFixed(), [at, level[1].add(qty)]);
  };
  const levelQty = floorToStep(LEVEL_QUOTE.div(price), market.stepSize);
  for (let i = 0; i < limit; i++) {
    add(bids, price.sub(gap.mul(i)), levelQty);
    add(asks, price.add(gap.mul(i + 1)), levelQty);
  }
  for (const order of exchange.engine.restingOrders(market.symbol)) {
    add(order.side === 'BUY' ? bids : asks, order.price, order.origQty.sub(order.executedQty));
  }
  const sorted = (side: Map<string, Level>, descending: boolean) =>
    [...side.values()]
      .sort(([a], [b]) => (descending ? b.comparedTo(a) : a.comparedTo(b)))
      .slice(0, limit)
      .map(([p, q]) => [fmt8(p), fmt8(q)]);
  return { lastUpdateId: Date.now(), bids: sorted(bids, true), asks: sorted(asks, false) };
};

/** Every fill in the sandbox is against its synthetic book: the buyer is the maker when our side made it as buyer or took it as seller. */
const isBuyerMaker = (t: SandboxTrade) => t.isBuyer === t.isMaker;

const publicTradeJson = (t: SandboxTrade) => ({
  id: t.id,
  price: fmt8(t.price),
  qty: fmt8(t.qty),
  quoteQty: fmt8(t.quoteQty),
  time: t.time,
  isBuyerMaker: isBuyerMaker(t),
  isBestMatch: true,
});

/** One aggregate per fill: a sandbox fill is one order's at one price (Binance's aggregation key). */
const aggTradeJson = (t: SandboxTrade) => ({
  a: t.id,
  p: fmt8(t.price),
  q: fmt8(t.qty),
  f: t.id,
  l: t.id,
  T: t.time,
  m: isBuyerMaker(t),
  M: true,
});

/** Binance's public book and trade endpoints (rest-api.md "Market Data endpoints"). */
export const bookRoutes = (app: FastifyInstance, exchange: SandboxExchange): void => {
  app.get('/api/v3/depth', async (request) => {
    const params = requestParams(request);
    const state = exchange.market(required(params, 'symbol'));
    return orderBook(exchange, state, depthLimit(params));
  });

  const recent = (params: Params) => {
    const state = exchange.market(required(params, 'symbol'));
    return { trades: exchange.engine.marketTrades(state.market.symbol), limit: limitParam(params) };
  };

  app.get('/api/v3/trades', async (request) => {
    const { trades, limit } = recent(requestParams(request));
    return trades.slice(-limit).map(publicTradeJson);
  });

  app.get('/api/v3/historicalTrades', async (request) => {
    const params = requestParams(request);
    const { trades, limit } = recent(params);
    const fromId = integerParam(params, 'fromId');
    if (fromId === undefined) return trades.slice(-limit).map(publicTradeJson);
    return trades
      .filter((t) => t.id >= fromId)
      .slice(0, limit)
      .map(publicTradeJson);
  });

  app.get('/api/v3/aggTrades', async (request) => {
    const params = requestParams(request);
    const { trades, limit } = recent(params);
    const fromId = integerParam(params, 'fromId');
    const startTime = integerParam(params, 'startTime');
    const endTime = integerParam(params, 'endTime');
    const matching = trades.filter(
      (t) =>
        (fromId === undefined || t.id >= fromId) &&
        (startTime === undefined || t.time >= startTime) &&
        (endTime === undefined || t.time <= endTime),
    );
    // "If fromId, startTime, and endTime are not sent, the most recent aggregate trades will be returned."
    const fromStart = fromId !== undefined || startTime !== undefined || endTime !== undefined;
    return (fromStart ? matching.slice(0, limit) : matching.slice(-limit)).map(aggTradeJson);
  });
};
