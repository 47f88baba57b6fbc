import type { FastifyInstance } from 'fastify';
import type { Market } from '../markets';
import { trimZeros, ZERO } from '../money';
import type { MarketState, SandboxExchange } from '../sandbox-exchange';
import { bybitError } from './bybit-error';
import { type BybitParams, bybitParams } from './bybit-request';

/** Bybit's v5 categories; the sandbox lists spot markets only, the others are empty. */
const CATEGORIES = ['spot', 'linear', 'inverse', 'option'] as const;

/** `category`, required on every market call: one of Bybit's, else 10001. docs/venues/bybit.md#endpoints */
export const categoryParam = (params: BybitParams): (typeof CATEGORIES)[number] => {
  const category = params.get('category');
  if (!category || !(CATEGORIES as readonly string[]).includes(category)) throw bybitError('10001');
  return category as (typeof CATEGORIES)[number];
};

/** Category `spot` only (orders, executions); anything else 10001. */
export const spotOnly = (params: BybitParams): void => {
  if (params.get('category') !== 'spot') throw bybitError('10001');
};

/** The listed market by Bybit symbol ("BTCUSDT"), else 170121 "Invalid symbol.". */
export const bybitMarket = (exchange: SandboxExchange, symbol: string | undefined): MarketState => {
  const state = symbol ? exchange.listMarkets().find((s) => s.market.symbol === symbol) : undefined;
  if (!state) throw bybitError('170121');
  return state;
};

/**
 * The market's status in Bybit's words (enum.mdx "status"): Trading while the core trades it,
 * PreLaunch before, Closed otherwise. docs/venues/bybit.md#filters
 */
const status = (market: Market): string =>
  market.status === 'TRADING' ? 'Trading' : market.status === 'PRE_TRADING' ? 'PreLaunch' : 'Closed';

/** One spot entry of instruments-info (instrument.mdx, category=spot). docs/venues/bybit.md#filters */
const instrument = ({ market }: MarketState) => ({
  symbol: market.symbol,
  baseCoin: market.base,
  quoteCoin: market.quote,
  innovation: '0',
  status: status(market),
  marginTrading: 'none',
  stTag: '0',
  lotSizeFilter: {
    basePrecision: market.stepSize.toFixed(),
    quotePrecision: '0.00000001',
    minOrderQty: market.minQty.toFixed(),
    maxOrderQty: market.maxQty.toFixed(),
    minOrderAmt: market.minNotional.toFixed(),
    maxOrderAmt: '9000000',
    maxLimitOrderQty: market.maxQty.toFixed(),
    maxMarketOrderQty: market.maxQty.toFixed(),
  },
  priceFilter: { tickSize: market.tickSize.toFixed() },
  symbolType: '',
});

/** One spot ticker (tickers.mdx, category=spot): no order book, so the best bid and ask are the last price. */
const ticker = (state: MarketState) => {
  const window = state.history.window24h(Date.now());
  const open = window?.open ?? state.price;
  const volume = window?.volume ?? ZERO;
  return {
    symbol: state.market.symbol,
    bid1Price: state.price.toFixed(),
    bid1Size: '1000',
    ask1Price: state.price.toFixed(),
    ask1Size: '1000',
    lastPrice: state.price.toFixed(),
    prevPrice24h: open.toFixed(),
    price24hPcnt: state.price.sub(open).div(open).toDecimalPlaces(4).toFixed(),
    highPrice24h: (window?.high ?? state.price).toFixed(),
    lowPrice24h: (window?.low ?? state.price).toFixed(),
    turnover24h: volume.mul(state.price).toFixed(),
    volume24h: volume.toFixed(),
    usdIndexPrice: state.price.toFixed(),
  };
};

/** Bybit's kline intervals (kline.mdx) → the core's. */
const INTERVALS: Record<string, string> = {
  '1': '1m',
  '3': '3m',
  '5': '5m',
  '15': '15m',
  '30': '30m',
  '60': '1h',
  '120': '2h',
  '240': '4h',
  '360': '6h',
  '720': '12h',
  D: '1d',
  W: '1w',
  M: '1M',
};

const optionalInt = (params: BybitParams, name: string): number | undefined => {
  const raw = params.get(name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw bybitError('10001');
  return Number(raw);
};

/** Bybit's public v5 market endpoints (docs/venues/bybit.md#endpoints). */
export const bybitMarketRoutes = (app: FastifyInstance, exchange: SandboxExchange): void => {
  // market/time.mdx: seconds and nanoseconds, as strings.
  app.get('/v5/market/time', async () => {
    const now = exchange.now();
    return { timeSecond: String(Math.floor(now / 1000)), timeNano: `${now}000000` };
  });

  app.get('/v5/market/instruments-info', async (request) => {
    const params = bybitParams(request);
    const category = categoryParam(params);
    if (category !== 'spot') return { category, list: [], nextPageCursor: '' };
    const symbol = params.get('symbol');
    const states = symbol ? [bybitMarket(exchange, symbol)] : exchange.listMarkets();
    return { category, list: states.map(instrument), nextPageCursor: '' };
  });

  app.get('/v5/market/tickers', async (request) => {
    const params = bybitParams(request);
    const category = categoryParam(params);
    if (category !== 'spot') return { category, list: [] };
    const symbol = params.get('symbol');
    const states = symbol ? [bybitMarket(exchange, symbol)] : exchange.listMarkets();
    return { category, list: states.map(ticker) };
  });

  // kline.mdx: [startTime, open, high, low, close, volume, turnover], newest first; limit 200 by
  // default, at most 1000.
  app.get('/v5/market/kline', async (request) => {
    const params = bybitParams(request);
    const category = params.get('category') ?? 'linear';
    if (category !== 'spot') throw bybitError('10001');
    const state = bybitMarket(exchange, params.get('symbol'));
    const interval = INTERVALS[params.get('interval') ?? ''];
    if (!interval) throw bybitError('10001');
    const limit = Math.min(optionalInt(params, 'limit') ?? 200, 1000);
    const rows = state.history.klines(interval, {
      startTime: optionalInt(params, 'start'),
      endTime: optionalInt(params, 'end'),
      limit,
    });
    const list = rows
      .map((row) => {
        const [openTime, open, high, low, close, volume, , turnover] = row;
        return [
          String(openTime),
          trimZeros(open),
          trimZeros(high),
          trimZeros(low),
          trimZeros(close),
          trimZeros(volume),
          trimZeros(turnover),
        ];
      })
      .reverse();
    return { category, symbol: state.market.symbol, list };
  });
};
