import type { FastifyInstance } from 'fastify';
import { binanceErrors } from '../binance-error';
import { exchangeInfoSymbol } from '../markets';
import { fmt8, ZERO } from '../money';
import type { MarketState, SandboxExchange } from '../sandbox-exchange';
import { type Params, requestParams } from '../signed-request';

/** `symbol=X` → [X]; `symbols=["X","Y"]` → [X, Y]; neither → every market. */
const selectMarkets = (
  exchange: SandboxExchange,
  params: Params,
): { states: MarketState[]; single: boolean } => {
  const symbol = params.get('symbol');
  if (symbol) return { states: [exchange.market(symbol)], single: true };
  const symbols = params.get('symbols');
  if (!symbols) return { states: exchange.listMarkets(), single: false };
  let list: unknown;
  try {
    list = JSON.parse(symbols);
  } catch {
    throw binanceErrors.illegalChars(
      'symbols',
      '^\\[("[A-Z0-9-_.]{1,20}"(,"[A-Z0-9-_.]{1,20}"){0,}){0,1}\\]$',
    );
  }
  if (!Array.isArray(list)) throw binanceErrors.mandatory('symbols');
  return { states: list.map((s) => exchange.market(String(s))), single: false };
};

const answer = <T>(states: MarketState[], single: boolean, shape: (s: MarketState) => T): T | T[] =>
  single ? shape(states[0]!) : states.map(shape);

const ticker24h = (state: MarketState) => {
  const now = Date.now();
  const window = state.history.window24h(now);
  const open = window?.open ?? state.price;
  const change = state.price.sub(open);
  return {
    symbol: state.market.symbol,
    priceChange: fmt8(change),
    priceChangePercent: change.div(open).mul(100).toFixed(3),
    weightedAvgPrice: fmt8(state.price),
    prevClosePrice: fmt8(open),
    lastPrice: fmt8(state.price),
    lastQty: '0.00000000',
    bidPrice: fmt8(state.price),
    bidQty: '1000.00000000',
    askPrice: fmt8(state.price),
    askQty: '1000.00000000',
    openPrice: fmt8(open),
    highPrice: fmt8(window?.high ?? state.price),
    lowPrice: fmt8(window?.low ?? state.price),
    volume: fmt8(window?.volume ?? ZERO),
    quoteVolume: fmt8((window?.volume ?? ZERO).mul(state.price)),
    openTime: window?.openTime ?? now,
    closeTime: now,
    firstId: 0,
    lastId: window?.trades ?? 0,
    count: window?.trades ?? 0,
  };
};

/** Binance's public market-data endpoints (no key needed), plus the empty futures/margin listings ccxt may ask for. */
export const marketDataRoutes = (app: FastifyInstance, exchange: SandboxExchange): void => {
  app.get('/api/v3/ping', async () => ({}));
  app.get('/api/v3/time', async () => ({ serverTime: exchange.now() }));

  app.get('/api/v3/exchangeInfo', async (request) => {
    const { states } = selectMarkets(exchange, requestParams(request));
    return {
      timezone: 'UTC',
      serverTime: exchange.now(),
      // The pools as the sandbox enforces them (Binance's unless lowered through the control API).
      rateLimits: exchange.rateLimits.pools().map((p) => ({
        rateLimitType: p.venueName,
        interval: p.interval.unit,
        intervalNum: p.interval.num,
        limit: p.limit,
      })),
      exchangeFilters: [],
      symbols: states.map((s) => exchangeInfoSymbol(s.market)),
    };
  });

  app.get('/api/v3/ticker/price', async (request) => {
    const { states, single } = selectMarkets(exchange, requestParams(request));
    return answer(states, single, (s) => ({ symbol: s.market.symbol, price: fmt8(s.price) }));
  });

  app.get('/api/v3/ticker/24hr', async (request) => {
    const { states, single } = selectMarkets(exchange, requestParams(request));
    return answer(states, single, ticker24h);
  });

  app.get('/api/v3/ticker/bookTicker', async (request) => {
    const { states, single } = selectMarkets(exchange, requestParams(request));
    // No order book here: the best bid and ask are both the last price.
    return answer(states, single, (s) => ({
      symbol: s.market.symbol,
      bidPrice: fmt8(s.price),
      bidQty: '1000.00000000',
      askPrice: fmt8(s.price),
      askQty: '1000.00000000',
    }));
  });

  app.get('/api/v3/avgPrice', async (request) => {
    const symbol = requestParams(request).get('symbol');
    if (!symbol) throw binanceErrors.mandatory('symbol');
    const state = exchange.market(symbol);
    // The same average PERCENT_PRICE_BY_SIDE checks limit prices against (average-price.ts).
    return { mins: 5, price: fmt8(state.averagePrice.over(5, state.price)), closeTime: Date.now() };
  });

  // uiKlines: the same parameters and answer as klines (rest-api.md "UIKlines"); one series here.
  for (const path of ['/api/v3/klines', '/api/v3/uiKlines'])
    app.get(path, async (request) => {
      const params = requestParams(request);
      const symbol = params.get('symbol');
      if (!symbol) throw binanceErrors.mandatory('symbol');
      const interval = params.get('interval');
      if (!interval) throw binanceErrors.mandatory('interval');
      const limit = Math.min(Number(params.get('limit') ?? 500), 1000);
      const startTime = params.has('startTime') ? Number(params.get('startTime')) : undefined;
      const endTime = params.has('endTime') ? Number(params.get('endTime')) : undefined;
      return exchange.market(symbol).history.klines(interval, { startTime, endTime, limit });
    });

  // ccxt's binance asks for these during loadMarkets unless told not to; the sandbox is spot only.
  const noContracts = async () => ({ timezone: 'UTC', serverTime: Date.now(), symbols: [] });
  app.get('/fapi/v1/exchangeInfo', noContracts);
  app.get('/dapi/v1/exchangeInfo', noContracts);
  app.get('/sapi/v1/margin/allPairs', async () => []);
  app.get('/sapi/v1/margin/isolated/allPairs', async () => []);
};
