import { VENUE_TABLES } from '@gridbot/venues';
import type { Decimal } from 'decimal.js';
import { admitOnBudget } from './budget/attach-budget';
import { type CandleInterval, type ExchangeCandle, fetchCandles } from './candles';
import { createCcxtExchange, exchangeCapabilities } from './ccxt-instance';
import { fetchTradableDepositAddress } from './deposit-address';
import { ExchangeError, guarded } from './errors';
import { dec, toMarketInfo, toOrder, toTicker } from './normalize';
import { cancelOrder, findOrderByClientId, type PlacementContext, placeOrder } from './order-placement';
import { followOrderUpdates, type OrderStreamOptions } from './order-stream';
import { assertUsableKey, checkPermissions, fetchAccountUid, tradingExpired } from './permissions';
import {
  amountForQuote,
  amountToPrecision,
  type MinimumViolation,
  minimumViolation,
  priceToPrecision,
} from './precision';
import { fetchTradedRange, type TradedRange } from './price-range';
import { marketsOf } from './shared-markets';
import { fetchMyTrades, fetchOrderTrades } from './trades';
import type {
  BalanceEntry,
  DepositAddress,
  ExchangeCapabilities,
  ExchangeClientOptions,
  ExchangeMode,
  ExchangeOrder,
  ExchangeTrade,
  KeyPermissions,
  MarketInfo,
  PlaceOrderInput,
  PlaceOrderResult,
  Ticker,
} from './types';
import { sharedUserDataStreams } from './user-data/shared-user-data-streams';
import { signWsApiParams } from './user-data/sign-ws-api';
import { followVenueOrderStream } from './venue-streams/venue-order-stream';

export type ExchangeClient = {
  readonly exchange: string;
  readonly mode: ExchangeMode;
  readonly capabilities: ExchangeCapabilities;
  /**
   * The spot markets, fetched again once older than the TTL (`marketsTtlMs`) or when another key's
   * client of the venue refreshed them; `reload` fetches them now. Needed before market() and the
   * precision helpers.
   */
  loadMarkets(reload?: boolean): Promise<MarketInfo[]>;
  /** COIN_NOT_LISTED when the exchange has no such market. */
  market(symbol: string): MarketInfo;
  /** market(symbol) with the venue's markets loaded first as loadMarkets() does, without listing them all. */
  loadMarket(symbol: string): Promise<MarketInfo>;
  priceToPrecision(symbol: string, price: Decimal | string): string;
  amountToPrecision(symbol: string, amount: Decimal | string): string;
  /** Base amount that `quoteAmount` buys at `price`, truncated to the lot step. */
  amountForQuote(symbol: string, quoteAmount: Decimal | string, price: Decimal | string): string;
  minimumViolation(
    symbol: string,
    price: Decimal | string,
    amount: Decimal | string,
  ): MinimumViolation | null;
  fetchTicker(symbol: string): Promise<Ticker>;
  /** Tickers of these symbols, or of every market in one call when none are given. */
  fetchTickers(symbols?: string[]): Promise<Record<string, Ticker>>;
  /**
   * The last price of these symbols, from one call for every market (Binance's ticker/price:
   * weight 4 however many symbols; docs/venues/binance.md#request-weight): what a price scan needs.
   */
  fetchLastPrices(symbols: string[]): Promise<Record<string, Decimal>>;
  /** Low and high traded since `since` (ms): 1-second klines, else public trades; null without either. */
  fetchTradedRange(symbol: string, since: number): Promise<TradedRange | null>;
  /** Closed candles with open time in [since, until) (ms), oldest first, paged (candles.ts). */
  fetchCandles(
    symbol: string,
    interval: CandleInterval,
    since: number,
    until: number,
  ): Promise<ExchangeCandle[]>;
  /** Non-zero balances by currency. */
  fetchBalance(): Promise<Record<string, BalanceEntry>>;
  /**
   * The account's deposit address of `currency` on `network` (a unified ccxt network code, e.g.
   * TRC20): where the platform's wallet sends a user's withdrawal to their exchange account.
   */
  fetchDepositAddress(currency: string, network: string): Promise<DepositAddress>;
  checkPermissions(): Promise<KeyPermissions>;
  assertUsableKey(): Promise<KeyPermissions>;
  /** The exchange account's id (Binance's `uid`), null where the venue does not say. */
  fetchAccountUid(): Promise<string | null>;
  placeOrder(input: PlaceOrderInput): Promise<PlaceOrderResult>;
  cancelOrder(symbol: string, ref: { id?: string; clientOrderId?: string }): Promise<ExchangeOrder | null>;
  fetchOpenOrders(symbol: string): Promise<ExchangeOrder[]>;
  fetchOrderByClientId(symbol: string, clientOrderId: string): Promise<ExchangeOrder | null>;
  /** Own trades since `since` (ms; at most 90 days back), oldest first; without it, the latest 1000. */
  fetchMyTrades(symbol: string, since?: number): Promise<ExchangeTrade[]>;
  /** The fills of one order, whatever their age (restart recovery). */
  fetchOrderTrades(symbol: string, orderId: string): Promise<ExchangeTrade[]>;
  /**
   * Follows the account's own order changes over the exchange's private stream until the returned
   * stop function is called, subscribed again after any failure: on Binance a subscription on a
   * WebSocket API connection shared with the other accounts of the process (`userDataStreams` of
   * the options); on Bybit and OKX a connection of the account's own (venue-streams/).
   */
  streamOrderUpdates(options: OrderStreamOptions): () => Promise<void>;
};

/** Slack for the exchange's clock: Binance accepts timestamps up to 1000 ms ahead of its own. */
const CLOCK_SLACK_MS = 1000;

/**
 * The exchange adapter: one code path over ccxt for Binance live, Binance testnet, the sandbox and
 * other ccxt exchanges that have what we need (see `capabilities`). Decimals and strings in and out.
 * Keep one client per API key: the rate limiter lives in it.
 */
export const createExchangeClient = (options: ExchangeClientOptions): ExchangeClient => {
  const exchange = createCcxtExchange(options);
  const capabilities = exchangeCapabilities(options.exchange);
  const ctx: PlacementContext = {
    exchange,
    capabilities,
    settleMs: (options.recvWindowMs ?? 5000) + CLOCK_SLACK_MS,
    maxSubmitAttempts: options.maxSubmitAttempts ?? 3,
  };
  const markets = marketsOf(exchange);
  const statusField = VENUE_TABLES[options.exchange]?.markets.statusField ?? 'status';
  const ensureMarkets = async () => {
    if (!markets.stale()) return;
    if (!exchange.markets) return guarded(() => markets.refresh());
    // Markets in hand keep serving when a refresh fails (the next call tries again).
    await markets.refresh().catch(() => undefined);
  };
  /**
   * A refusal that may mean the market changed under us (a filter, the symbol's status, a
   * delisting) fetches the markets again at once, so the next plan uses the new tick, lot step or
   * status (docs/grid.md#markets-change).
   */
  const watched = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      if (error instanceof ExchangeError && marketMayHaveChanged(error)) {
        await markets.refresh(true).catch(() => undefined);
      }
      throw error;
    }
  };
  const market = (symbol: string): MarketInfo => {
    if (!exchange.markets) throw new ExchangeError('EXCHANGE_UNAVAILABLE', 'call loadMarkets() first');
    const found = exchange.markets[symbol];
    if (found?.spot !== true) throw new ExchangeError('COIN_NOT_LISTED', `no spot market ${symbol}`);
    return toMarketInfo(found, statusField);
  };

  // ccxt pro's binance parses the stream's events (parseWsOrder) exactly as its watchOrders did; one
  // key-less instance per client, its markets the venue's shared ones, for the parsing only.
  let parser: ReturnType<typeof createCcxtExchange> | undefined;
  const proInstance = () => {
    parser ??= createCcxtExchange({ ...options, apiKey: '', secret: '' }, true);
    return parser;
  };
  const userDataUrl = (): string => {
    const ws = (proInstance().urls.api as { ws?: Record<string, Record<string, string>> }).ws;
    const url = ws?.['ws-api']?.spot;
    if (!url) throw new ExchangeError('EXCHANGE_UNSUPPORTED', 'no WebSocket API URL for spot');
    return url;
  };
  const loadParser = async () => {
    const pro = proInstance();
    await guarded(() => pro.loadMarkets());
    return pro;
  };
  /** The venue's time now (ms), on the clock offset ccxt measured with the markets. */
  const serverNow = async (): Promise<number> => {
    await ensureMarkets();
    return exchange.milliseconds() - Number(exchange.options.timeDifference ?? 0);
  };
  /**
   * `userDataStream.subscribe.signature`'s parameters (web-socket-api.md, "Subscribe to User Data
   * Stream through signature subscription"): signed like a REST call, on the clock offset ccxt
   * measured with the markets. The request weighs 2 on the IP's budget: it is paced like one.
   */
  const signUserDataSubscription = async (): Promise<Record<string, string | number>> => {
    await ensureMarkets();
    const shape = { method: 'WS', path: 'userDataStream.subscribe.signature', params: new URLSearchParams() };
    if (!(await admitOnBudget(exchange, shape))) await exchange.throttle(2);
    const timestamp = Math.round(await serverNow());
    const params = { apiKey: options.apiKey, recvWindow: options.recvWindowMs ?? 5000, timestamp };
    return { ...params, signature: signWsApiParams(params, options.secret) };
  };

  const client: ExchangeClient = {
    exchange: options.exchange,
    mode: options.mode,
    capabilities,
    loadMarkets: async (reload = false) => {
      if (reload) await guarded(() => markets.refresh(true));
      else await ensureMarkets();
      return Object.values(exchange.markets ?? {})
        .filter((m): m is NonNullable<typeof m> => m?.spot === true)
        .map((m) => toMarketInfo(m, statusField));
    },
    market,
    loadMarket: async (symbol) => {
      await ensureMarkets();
      return market(symbol);
    },
    priceToPrecision: (symbol, price) => priceToPrecision(exchange, market(symbol).symbol, price),
    amountToPrecision: (symbol, amount) => amountToPrecision(exchange, market(symbol).symbol, amount),
    amountForQuote: (symbol, quote, price) => amountForQuote(exchange, market(symbol).symbol, quote, price),
    minimumViolation: (symbol, price, amount) => minimumViolation(market(symbol), price, amount),
    fetchTicker: async (symbol) => {
      await ensureMarkets();
      return toTicker(await guarded(() => exchange.fetchTicker(symbol)));
    },
    fetchTickers: async (symbols) => {
      await ensureMarkets();
      const tickers = await guarded(() => exchange.fetchTickers(symbols));
      return Object.fromEntries(Object.values(tickers).map((t) => [t.symbol, toTicker(t)]));
    },
    fetchLastPrices: async (symbols) => {
      await ensureMarkets();
      const wanted = new Set(symbols);
      const prices: Record<string, Decimal> = {};
      if (!exchange.has.fetchLastPrices) {
        for (const t of Object.values(await guarded(() => exchange.fetchTickers(symbols)))) {
          const last = dec(t.last);
          if (last && t.symbol && wanted.has(t.symbol)) prices[t.symbol] = last;
        }
        return prices;
      }
      // No symbols in the call: every symbol weighs 4, a list of several weighs the same.
      const all = await guarded(() => exchange.fetchLastPrices(undefined, { type: 'spot' }));
      for (const [symbol, entry] of Object.entries(all)) {
        const price = dec(entry?.price);
        if (price && wanted.has(symbol)) prices[symbol] = price;
      }
      return prices;
    },
    fetchTradedRange: async (symbol, since) => {
      await ensureMarkets();
      return fetchTradedRange(exchange, symbol, since);
    },
    fetchCandles: async (symbol, interval, since, until) => {
      await ensureMarkets();
      return fetchCandles(exchange, market(symbol).symbol, interval, since, until);
    },
    fetchBalance: async () => {
      await ensureMarkets();
      const balance = await guarded(() => exchange.fetchBalance());
      const free = (balance.free ?? {}) as Record<string, unknown>;
      const used = (balance.used ?? {}) as Record<string, unknown>;
      const entries: Record<string, BalanceEntry> = {};
      for (const [currency, total] of Object.entries(balance.total ?? {})) {
        const totalDec = dec(total);
        if (!totalDec || totalDec.isZero()) continue;
        entries[currency] = {
          free: dec(free[currency]) ?? totalDec.mul(0),
          used: dec(used[currency]) ?? totalDec.mul(0),
          total: totalDec,
        };
      }
      return entries;
    },
    fetchDepositAddress: async (currency, network) => {
      await ensureMarkets();
      return fetchTradableDepositAddress(exchange, currency, network);
    },
    checkPermissions: () => checkPermissions(exchange, options.mode, capabilities),
    assertUsableKey: () => assertUsableKey(exchange, options.mode, capabilities),
    fetchAccountUid: () => fetchAccountUid(exchange),
    placeOrder: async (input) => {
      await ensureMarkets();
      market(input.symbol);
      return watched(async () => {
        try {
          return await placeOrder(ctx, input);
        } catch (error) {
          throw await refineKeyError(error, () => checkPermissions(exchange, options.mode, capabilities));
        }
      });
    },
    cancelOrder: async (symbol, ref) => {
      await ensureMarkets();
      try {
        return await watched(() => cancelOrder(ctx, symbol, ref));
      } catch (error) {
        throw await refineKeyError(error, () => checkPermissions(exchange, options.mode, capabilities));
      }
    },
    fetchOpenOrders: async (symbol) => {
      await ensureMarkets();
      try {
        const orders = await watched(() => guarded(() => exchange.fetchOpenOrders(symbol)));
        return orders.map((o) => toOrder(o));
      } catch (error) {
        throw await refineKeyError(error, () => checkPermissions(exchange, options.mode, capabilities));
      }
    },
    fetchOrderByClientId: async (symbol, clientOrderId) => {
      await ensureMarkets();
      return watched(() => findOrderByClientId(ctx, symbol, clientOrderId));
    },
    fetchMyTrades: async (symbol, since) => {
      await ensureMarkets();
      return watched(() => fetchMyTrades(exchange, symbol, since));
    },
    fetchOrderTrades: async (symbol, orderId) => {
      await ensureMarkets();
      return watched(() => fetchOrderTrades(exchange, symbol, orderId));
    },
    streamOrderUpdates: (streamOptions) => {
      if (options.exchange !== 'binance') {
        return followVenueOrderStream(
          {
            venue: options.exchange,
            mode: options.mode,
            ...(options.sandboxUrl ? { sandboxUrl: options.sandboxUrl } : {}),
            apiKey: options.apiKey,
            secret: options.secret,
            ...(options.password ? { password: options.password } : {}),
            serverNow,
            parser: loadParser,
            ...(options.privateStreamLimiter ? { limiter: options.privateStreamLimiter } : {}),
            timing: {
              ...options.privateStreamTiming,
              ...(options.localAddress ? { localAddress: options.localAddress } : {}),
            },
          },
          streamOptions,
        );
      }
      const url = userDataUrl();
      const streams = options.userDataStreams?.(url) ?? sharedUserDataStreams(url);
      return followOrderUpdates(
        streams,
        { id: options.apiKey, sign: signUserDataSubscription },
        loadParser,
        streamOptions,
      );
    },
  };
  return client;
};

/**
 * Refusals after which the markets are fetched again: Binance's filter failures (-1013 "Filter
 * failure: PRICE_FILTER", LOT_SIZE, NOTIONAL, …: errors.md#filter-failures), "Market is closed."
 * (-2010: the symbol left TRADING, errors.md#other-errors) and -1121 "Invalid symbol." (delisted);
 * on other exchanges, the order refusals ccxt reports as InvalidOrder and BadSymbol.
 */
const marketMayHaveChanged = (error: ExchangeError): boolean => {
  const code = error.options.exchangeCode;
  if (code === '-1013' || code === '-1121') return true;
  if (/market is closed/i.test(error.options.exchangeMessage ?? '')) return true;
  if (code !== undefined) return false;
  return ['COIN_NOT_LISTED', 'ORDER_REJECTED', 'ORDER_BELOW_EXCHANGE_MIN'].includes(error.code);
};

/**
 * Binance answers an invalid key, a request from an IP the key does not trust, and a key without
 * trading permission alike: -2015 "Invalid API-key, IP, or permissions for action." (errors.md).
 * When a call fails that way, ask the exchange which it is: the permission read refuses our IP too
 * (API_KEY_IP_NOT_ALLOWED, permissions.ts), or reports trading off — its 30-day term ended
 * (API_KEY_TRADING_EXPIRED) or never on (API_KEY_NO_SPOT).
 */
const refineKeyError = async (
  error: unknown,
  permissions: () => Promise<KeyPermissions>,
): Promise<unknown> => {
  if (!(error instanceof ExchangeError) || error.code !== 'API_KEY_INVALID') return error;
  const known = {
    cause: error,
    exchangeCode: error.options.exchangeCode,
    exchangeMessage: error.options.exchangeMessage,
  };
  try {
    const current = await permissions();
    if (tradingExpired(current)) {
      return new ExchangeError('API_KEY_TRADING_EXPIRED', "the API key's spot trading term has ended", known);
    }
    return current.spot
      ? error
      : new ExchangeError('API_KEY_NO_SPOT', 'the API key cannot trade spot', known);
  } catch (probe) {
    return probe instanceof ExchangeError && probe.code === 'API_KEY_IP_NOT_ALLOWED'
      ? new ExchangeError('API_KEY_IP_NOT_ALLOWED', probe.message, known)
      : error;
  }
};
