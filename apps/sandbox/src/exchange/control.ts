import { Decimal as Dec } from 'decimal.js';
import {
  accountUid,
  type BalanceView,
  type KeyAccess,
  type KeyPermissions,
  type NewAccount,
  type NewKeyCredentials,
} from './accounts';
import { type LiquiditySpec, liquidityView } from './liquidity';
import type { MarketFilterChange, SymbolStatus } from './markets';
import { fmt8, roundToStep } from './money';
import type { ForcedOverLimit, LoggedRequest, PoolLimits } from './rate-limits';
import type {
  ExchangeOutage,
  OrderResponseFault,
  SandboxExchange,
  SandboxMarketConfig,
} from './sandbox-exchange';
import { myTradeJson, queriedOrderJson } from './wire';

export type SandboxMarketView = {
  symbol: string;
  base: string;
  quote: string;
  /** Binance's symbol status: TRADING, BREAK, HALT, … (enums.md#symbol-status-status). */
  status: SymbolStatus;
  price: string;
  tickSize: string;
  stepSize: string;
  minQty: string;
  minNotional: string;
  maxNumOrders: number;
  /** How much trades per price level and step (liquidity.ts). */
  liquidity: LiquiditySpec;
};

/** A past candle (decimal strings on the market's tick grid). */
export type SandboxPastCandle = { time: number; open: string; high: string; low: string; close: string };

export type SandboxOrderView = ReturnType<typeof queriedOrderJson>;
export type SandboxTradeView = ReturnType<typeof myTradeJson>;

/**
 * The sandbox's control surface, for tests, the demo seed and the /_sandbox/ HTTP routes. Amounts
 * are decimal strings; orders and trades come in Binance's own JSON shapes.
 */
export type SandboxControl = {
  /** The key's credentials, with a generated OKX passphrase unless one is given. */
  createAccount(input?: NewAccount): { accountId: number } & NewKeyCredentials;
  /** Another key on the account of `apiKey` (e.g. one with other permissions). */
  addApiKey(apiKey: string, permissions?: Partial<KeyPermissions>): NewKeyCredentials;
  /** Whether the key exists (a restarted sandbox without its state file has none of the old ones). */
  hasApiKey(apiKey: string): boolean;
  setBalances(apiKey: string, balances: Record<string, string>): BalanceView[];
  setPermissions(apiKey: string, permissions: Partial<KeyPermissions>): KeyPermissions;
  /**
   * A key's trusted IPs (empty: any IP) and the end of its spot trading (ms; null: none), as a
   * user edits them on Binance's API management page.
   */
  setKeyAccess(apiKey: string, access: Partial<KeyAccess>): KeyAccess;
  account(apiKey: string): {
    accountId: number;
    /** The account's uid, as GET /api/v3/account reports it. */
    uid: number;
    permissions: KeyPermissions;
    access: KeyAccess;
    balances: BalanceView[];
    bnbBurn: boolean;
  };
  /** Pay trading fees in BNB at Binance's discount while the BNB balance suffices (Binance's "BNB burn"). */
  setBnbBurn(apiKey: string, on: boolean): { spotBNBBurn: boolean };
  /** How much the market trades per price level and step from now on: `'infinite'` fills whole. */
  setLiquidity(symbol: string, liquidity: LiquiditySpec): SandboxMarketView;
  addMarket(config: SandboxMarketConfig): SandboxMarketView;
  markets(): SandboxMarketView[];
  /** Sets a symbol's status: outside TRADING new orders answer -2010 "Market is closed.". */
  setMarketStatus(symbol: string, status: SymbolStatus): SandboxMarketView;
  /** Changes a market's tick, lot step, minimum quantity or minimum notional at run time. */
  setMarketFilters(symbol: string, change: MarketFilterChange): SandboxMarketView;
  /** Delists a market: resting orders cancelled, gone from exchangeInfo, -1121 for every request. */
  delistMarket(symbol: string): void;
  /** Shifts the exchange's clock `offsetMs` from this host's (0: back in step). */
  skewClock(offsetMs: number): void;
  price(symbol: string): string;
  /**
   * A replayed market's past candles from `since` to where its live feed started, oldest first,
   * one per file interval (candle-past.ts); empty for markets without a past.
   */
  pastCandles(symbol: string, since: number): SandboxPastCandle[];
  /** Sets the price (rounded to the tick) and runs the matching engine; returns the fills. */
  setPrice(symbol: string, price: string): SandboxTradeView[];
  /** Advances the price feeds (one market or all) `steps` times, matching after each step. */
  advance(steps?: number, symbol?: string): SandboxTradeView[];
  orders(apiKey: string, symbol?: string): SandboxOrderView[];
  trades(apiKey: string, symbol?: string): SandboxTradeView[];
  /** Fills part of a resting limit order at its price; the rest keeps resting (PARTIALLY_FILLED). */
  fillPart(apiKey: string, symbol: string, clientOrderId: string, qty: string): SandboxTradeView;
  /** Cancels a resting order of the account, as its owner does on the exchange's own site or app. */
  cancelOrder(apiKey: string, symbol: string, clientOrderId: string): SandboxOrderView;
  /** The next POST /api/v3/order is executed, then its response is dropped, delayed or made unknown. */
  failNextOrderResponse(fault: OrderResponseFault): void;
  /** Binance's endpoints misbehave for a while: 503s, late answers or -1007 on new orders. */
  startOutage(outage: ExchangeOutage): void;
  /**
   * The user data stream connections (WebSocket API and listenKey streams) that carry the account
   * of `apiKey` — or, without it, every connection — go silent until `liftStreamSilence`: open,
   * sending nothing (no answer, event, ping or pong), reading nothing (stream-silence.ts).
   */
  silenceStreams(apiKey?: string): void;
  /**
   * The next `count` WebSocket API subscriptions are carried out and their answers lost: the
   * account's events flow under a subscription id its client never learnt, and a second subscription
   * of the account on that connection is refused -2035.
   */
  loseSubscribeAnswers(count: number): void;
  liftStreamSilence(): void;
  /**
   * Changes pool limits by pool id (`REQUEST_WEIGHT`, `RAW_REQUESTS`, `ORDERS_10S`, `ORDERS_1D`),
   * e.g. `{ REQUEST_WEIGHT: 100 }`; returns every pool's limit in force.
   */
  setLimits(limits: PoolLimits): PoolLimits;
  /**
   * Answers as if a limit (429) or a ban (418) were hit, with `Retry-After: retryAfterS`, for one
   * IP or (without `ip`) every IP. A 429 is the real thing: a request sent inside it earns a ban.
   */
  forceOverLimit(force: ForcedOverLimit): void;
  /** Requests to Binance's endpoints since `since` (ms), oldest first: time, ip, method, path, status, weight. */
  requestLog(since?: number): LoggedRequest[];
  /** Binance's limits again; usage, bans, forced answers and the log cleared. */
  resetLimits(): void;
};

export const createSandboxControl = (exchange: SandboxExchange): SandboxControl => {
  const accountOf = (apiKey: string) => exchange.accounts.keyOrThrow(apiKey).accountId;
  const marketView = (symbol: string): SandboxMarketView => {
    const { market, price } = exchange.market(symbol);
    return {
      symbol: market.symbol,
      base: market.base,
      quote: market.quote,
      status: market.status,
      price: fmt8(price),
      tickSize: fmt8(market.tickSize),
      stepSize: fmt8(market.stepSize),
      minQty: fmt8(market.minQty),
      minNotional: fmt8(market.minNotional),
      maxNumOrders: market.maxNumOrders,
      liquidity: liquidityView(market.liquidity),
    };
  };
  return {
    createAccount: (input = {}) => exchange.accounts.createAccount(input),
    addApiKey: (apiKey, permissions = {}) => {
      const key = exchange.accounts.addKey(accountOf(apiKey), permissions);
      return { apiKey: key.apiKey, secret: key.secret, passphrase: key.passphrase! };
    },
    hasApiKey: (apiKey) => exchange.accounts.hasKey(apiKey),
    setBalances: (apiKey, balances) => {
      exchange.accounts.setBalances(accountOf(apiKey), balances);
      return exchange.accounts.balances(accountOf(apiKey));
    },
    setPermissions: (apiKey, permissions) => exchange.accounts.setPermissions(apiKey, permissions),
    setKeyAccess: (apiKey, access) => exchange.accounts.setAccess(apiKey, access),
    account: (apiKey) => {
      const key = exchange.accounts.keyOrThrow(apiKey);
      return {
        accountId: key.accountId,
        uid: accountUid(key.accountId),
        permissions: { ...key.permissions },
        access: { ipWhitelist: [...key.ipWhitelist], tradingExpiresAt: key.tradingExpiresAt },
        balances: exchange.accounts.balances(key.accountId),
        bnbBurn: exchange.accounts.paysFeesInBnb(key.accountId),
      };
    },
    setBnbBurn: (apiKey, on) => {
      exchange.accounts.setBnbBurn(accountOf(apiKey), on);
      return { spotBNBBurn: exchange.accounts.paysFeesInBnb(accountOf(apiKey)) };
    },
    setLiquidity: (symbol, liquidity) => {
      exchange.setLiquidity(symbol, liquidity);
      return marketView(symbol);
    },
    addMarket: (config) => marketView(exchange.addMarket(config).symbol),
    markets: () => exchange.listMarkets().map((s) => marketView(s.market.symbol)),
    setMarketStatus: (symbol, status) => marketView(exchange.setStatus(symbol, status).symbol),
    setMarketFilters: (symbol, change) => marketView(exchange.setFilters(symbol, change).symbol),
    delistMarket: (symbol) => exchange.delist(symbol),
    skewClock: (offsetMs) => exchange.skewClock(offsetMs),
    price: (symbol) => fmt8(exchange.market(symbol).price),
    pastCandles: (symbol, since) => {
      const { market, history } = exchange.market(symbol);
      const tick = (value: Dec) => roundToStep(value, market.tickSize).toFixed();
      return (history.past?.candlesSince(since) ?? []).map((c) => ({
        time: c.openTime,
        open: tick(c.open),
        high: tick(c.high),
        low: tick(c.low),
        close: tick(c.close),
      }));
    },
    setPrice: (symbol, price) => exchange.setPrice(symbol, price).map(myTradeJson),
    advance: (steps = 1, symbol) => exchange.advance(steps, symbol).map(myTradeJson),
    orders: (apiKey, symbol) =>
      exchange.engine
        .allOrders(accountOf(apiKey), symbol ? exchange.market(symbol).market.symbol : undefined)
        .map(queriedOrderJson),
    trades: (apiKey, symbol) =>
      exchange.engine
        .trades(accountOf(apiKey), symbol ? exchange.market(symbol).market.symbol : undefined)
        .map(myTradeJson),
    fillPart: (apiKey, symbol, clientOrderId, qty) =>
      myTradeJson(
        exchange.engine.fillPart(
          accountOf(apiKey),
          exchange.market(symbol).market,
          { clientOrderId },
          new Dec(qty),
        ),
      ),
    cancelOrder: (apiKey, symbol, clientOrderId) =>
      queriedOrderJson(
        exchange.engine.cancel(accountOf(apiKey), exchange.market(symbol).market, { clientOrderId }),
      ),
    failNextOrderResponse: (fault) => exchange.failNextOrderResponse(fault),
    startOutage: (outage) => exchange.startOutage(outage),
    silenceStreams: (apiKey) =>
      exchange.streamSilence.silence(apiKey === undefined ? undefined : accountOf(apiKey)),
    liftStreamSilence: () => exchange.streamSilence.lift(),
    loseSubscribeAnswers: (count) => {
      exchange.lostSubscribeAnswers = count;
    },
    setLimits: (limits) => exchange.rateLimits.setLimits(limits),
    forceOverLimit: (force) => exchange.rateLimits.forceOverLimit(force),
    requestLog: (since) => exchange.rateLimits.requestLog(since),
    resetLimits: () => exchange.rateLimits.reset(),
  };
};
