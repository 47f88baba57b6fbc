import type { FastifyInstance } from 'fastify';
import type { Market } from '../markets';
import { trimZeros, ZERO } from '../money';
import type { MarketState, SandboxExchange } from '../sandbox-exchange';
import { okxError } from './okx-error';
import { type OkxParams, okxParams } from './okx-request';

/** OKX's instrument id for a market: base and quote joined by a dash ("BTC-USDT"). */
export const instIdOf = (market: Market): string => `${market.base}-${market.quote}`;

/** The listed market by instrument id, else 51001 ("Instrument ID … doesn't exist."). */
export const okxMarket = (exchange: SandboxExchange, instId: string | undefined): MarketState => {
  const state = instId ? exchange.listMarkets().find((s) => instIdOf(s.market) === instId) : undefined;
  if (!state) throw okxError('51001');
  return state;
};

/** `instType` where a call requires it: SPOT is the only type the sandbox lists, others are empty. */
const INST_TYPES = ['SPOT', 'MARGIN', 'SWAP', 'FUTURES', 'OPTION'];

export const instTypeParam = (params: OkxParams, required: boolean): string | undefined => {
  const instType = params.get('instType');
  if (instType === undefined || instType === '') {
    if (required) throw okxError('50014', 'instType');
    return undefined;
  }
  if (!INST_TYPES.includes(instType)) throw okxError('51000', 'instType');
  return instType;
};

/**
 * The market's state in OKX's words (Get instruments › state): live while the core trades it,
 * preopen before its listing, suspend otherwise. docs/venues/okx.md#filters
 */
const state = (market: Market): string =>
  market.status === 'TRADING' ? 'live' : market.status === 'PRE_TRADING' ? 'preopen' : 'suspend';

/**
 * One SPOT entry of Get instruments (Public data › Get instruments). docs/venues/okx.md#filters. The
 * sandbox keeps no listing time (`listTime` "") and no USD caps of its own: `maxLmtAmt`/`maxMktAmt`
 * are placeholders in the size of OKX's usual values, never enforced.
 */
const instrument = ({ market }: MarketState) => ({
  alias: '',
  auctionEndTime: '',
  baseCcy: market.base,
  category: '1',
  ctMult: '',
  ctType: '',
  ctVal: '',
  ctValCcy: '',
  expTime: '',
  instFamily: '',
  instId: instIdOf(market),
  instType: 'SPOT',
  lever: '',
  listTime: '',
  lotSz: market.stepSize.toFixed(),
  maxIcebergSz: market.maxQty.toFixed(),
  maxLmtAmt: '20000000',
  maxLmtSz: market.maxQty.toFixed(),
  maxMktAmt: '1000000',
  maxMktSz: market.maxQty.toFixed(),
  maxStopSz: market.maxQty.toFixed(),
  maxTriggerSz: market.maxQty.toFixed(),
  maxTwapSz: market.maxQty.toFixed(),
  minSz: market.minQty.toFixed(),
  optType: '',
  quoteCcy: market.quote,
  ruleType: 'normal',
  settleCcy: '',
  state: state(market),
  stk: '',
  tickSz: market.tickSize.toFixed(),
  uly: '',
});

/**
 * One SPOT ticker (Market data › Get ticker): no order book, so the best bid and ask are the last
 * price. `vol24h` is in the base coin and `volCcy24h` in the quote coin for spot.
 */
const ticker = (s: MarketState, now: number) => {
  const window = s.history.window24h(Date.now());
  const open = window?.open ?? s.price;
  const volume = window?.volume ?? ZERO;
  return {
    instType: 'SPOT',
    instId: instIdOf(s.market),
    last: s.price.toFixed(),
    lastSz: '0',
    askPx: s.price.toFixed(),
    askSz: '1000',
    bidPx: s.price.toFixed(),
    bidSz: '1000',
    open24h: open.toFixed(),
    high24h: (window?.high ?? s.price).toFixed(),
    low24h: (window?.low ?? s.price).toFixed(),
    volCcy24h: volume.mul(s.price).toFixed(),
    vol24h: volume.toFixed(),
    ts: String(now),
    sodUtc0: open.toFixed(),
    sodUtc8: open.toFixed(),
  };
};

/**
 * OKX's bars (Market data › Get candlesticks, `bar`) → the core's intervals. The plain 6H and longer
 * bars are Hong Kong time on OKX; the sandbox serves them on UTC boundaries like the `utc` ones. 1W
 * and 1M are not kept by the core (51000).
 */
const BARS: Record<string, string> = {
  '1m': '1m',
  '3m': '3m',
  '5m': '5m',
  '15m': '15m',
  '30m': '30m',
  '1H': '1h',
  '2H': '2h',
  '4H': '4h',
  '6H': '6h',
  '12H': '12h',
  '1D': '1d',
  '6Hutc': '6h',
  '12Hutc': '12h',
  '1Dutc': '1d',
};

export const optionalInt = (params: OkxParams, name: string): number | undefined => {
  const raw = params.get(name);
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) throw okxError('51000', name);
  return Number(raw);
};

/**
 * Candles newest first as OKX pages them: `after` returns those older than a ts, `before` those
 * newer; `limit` at most `maxLimit` (default 100). Each row [ts, o, h, l, c, vol, volCcy,
 * volCcyQuote, confirm], confirm "0" for the candle still open.
 */
const candles = (exchange: SandboxExchange, params: OkxParams, maxLimit: number) => {
  const s = okxMarket(exchange, params.get('instId'));
  const interval = BARS[params.get('bar') ?? '1m'];
  if (!interval) throw okxError('51000', 'bar');
  const limit = Math.min(optionalInt(params, 'limit') ?? 100, maxLimit);
  const after = optionalInt(params, 'after');
  const before = optionalInt(params, 'before');
  const rows = s.history.klines(interval, {
    ...(before !== undefined ? { startTime: before + 1 } : {}),
    ...(after !== undefined ? { endTime: after - 1 } : {}),
    limit: before !== undefined ? 1440 : limit,
  });
  const now = exchange.now();
  return rows
    .slice(-limit)
    .map((row) => {
      const [openTime, open, high, low, close, volume, closeTime, quoteVolume] = row;
      return [
        String(openTime),
        trimZeros(open),
        trimZeros(high),
        trimZeros(low),
        trimZeros(close),
        trimZeros(volume),
        trimZeros(quoteVolume),
        trimZeros(quoteVolume),
        closeTime < now ? '1' : '0',
      ];
    })
    .reverse();
};

/** OKX's public v5 market endpoints (docs/venues/okx.md#endpoints). */
export const okxMarketRoutes = (app: FastifyInstance, exchange: SandboxExchange): void => {
  // Public data › Get system time: milliseconds, as a string.
  app.get('/api/v5/public/time', async () => [{ ts: String(exchange.now()) }]);

  app.get('/api/v5/public/instruments', async (request) => {
    const params = okxParams(request);
    if (instTypeParam(params, true) !== 'SPOT') return [];
    const instId = params.get('instId');
    const states = instId ? [okxMarket(exchange, instId)] : exchange.listMarkets();
    return states.map(instrument);
  });

  app.get('/api/v5/market/tickers', async (request) => {
    const params = okxParams(request);
    if (instTypeParam(params, true) !== 'SPOT') return [];
    return exchange.listMarkets().map((s) => ticker(s, exchange.now()));
  });

  app.get('/api/v5/market/ticker', async (request) => {
    const params = okxParams(request);
    return [ticker(okxMarket(exchange, params.get('instId')), exchange.now())];
  });

  // Market data › Get candlesticks (limit at most 300) and Get candlesticks history (at most 100).
  app.get('/api/v5/market/candles', async (request) => candles(exchange, okxParams(request), 300));
  app.get('/api/v5/market/history-candles', async (request) => candles(exchange, okxParams(request), 100));
};
