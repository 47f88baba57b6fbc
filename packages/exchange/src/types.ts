import type { Decimal } from 'decimal.js';
import type { VenueBudget } from './budget/venue-budget';
import type { ConnectionLimit, ConnectionLimiter } from './user-data/connection-limiter';
import type { UserDataStreams } from './user-data/user-data-streams';
import type { PrivateStreamTiming } from './venue-streams/follow-private-stream';

/** live: the real exchange; testnet: ccxt's setSandboxMode(true); sandbox: our apps/sandbox (Binance dialect). */
export type ExchangeMode = 'live' | 'testnet' | 'sandbox';

export type ExchangeClientOptions = {
  /** A ccxt exchange id; 'binance' is the one the product is built and tested on. */
  exchange: string;
  mode: ExchangeMode;
  /** Base URL of the sandbox exchange (mode 'sandbox'), e.g. http://127.0.0.1:3100. */
  sandboxUrl?: string;
  apiKey: string;
  secret: string;
  /** The venue's third credential where it has one (OKX's passphrase). */
  password?: string;
  /** ccxt's request timeout (default 10 000 ms). */
  timeoutMs?: number;
  /** Binance's recvWindow (default 5000 ms): also how long an order of unknown fate can still appear. */
  recvWindowMs?: number;
  /**
   * How long loaded markets (filters, status) and the clock offset measured with them are used
   * before they are fetched again (default SHARED_MARKETS_TTL_MS, 5 min).
   */
  marketsTtlMs?: number;
  /** Attempts to submit one order when its outcome stays unknown (default 3). */
  maxSubmitAttempts?: number;
  /**
   * The request budget of this process's egress IP (docs/grid.md#request-budget), replacing ccxt's
   * per-instance limiter for venues with a table in packages/venues; absent → ccxt's own limiter.
   */
  budget?: VenueBudget;
  /** The local address requests leave from (EGRESS_BIND_ADDRESS). */
  localAddress?: string;
  /**
   * The user data connections of a venue URL that this client's order stream subscribes on (one
   * set per process, shared by every account: packages/services builds it with the installation's
   * connection limiter); absent → the process's default (attempts paced in memory).
   */
  userDataStreams?: (url: string) => UserDataStreams;
  /**
   * Paces the connection attempts of a private stream that is a connection per account (Bybit,
   * OKX) to `url` within `budget` (the venue's per-IP limit, privateStreamConnectionBudget): one
   * limiter per URL for the installation (packages/services: Redis when distributed); absent → one
   * per URL in this process's memory.
   */
  privateStreamLimiter?: (url: string, budget: ConnectionLimit) => ConnectionLimiter;
  /**
   * The heartbeat, silence, setup and backoff times of a private stream that is a connection per
   * account (Bybit, OKX); absent → the venue's (tests shorten them). Binance's are `userDataStreams`'.
   */
  privateStreamTiming?: Omit<PrivateStreamTiming, 'localAddress'>;
};

export type ExchangeCapabilities = {
  exchange: string;
  /** Everything the grid bot needs is there (spot orders by client id, trades, balance, tickers, key check). */
  supported: boolean;
  spot: boolean;
  createOrder: boolean;
  cancelOrder: boolean;
  fetchOrder: boolean;
  fetchOpenOrders: boolean;
  fetchMyTrades: boolean;
  fetchBalance: boolean;
  fetchTicker: boolean;
  fetchTickers: boolean;
  /** Market buy for a quote amount ("spend 100 USDT"). */
  marketBuyWithCost: boolean;
  /** The exchange reports a key's trading and withdrawal permissions. */
  keyPermissions: boolean;
  /** ccxt knows a testnet for it (mode 'testnet'). */
  testnet: boolean;
  /**
   * We follow the account's own order changes on the venue's private stream (streamOrderUpdates);
   * without it the sweep's reconciles alone see fills (docs/grid.md#triggers).
   */
  orderStream: boolean;
};

export type MarketInfo = {
  /** Unified symbol, e.g. "BTC/USDT". */
  symbol: string;
  /** The exchange's id, e.g. "BTCUSDT". */
  id: string;
  base: string;
  quote: string;
  /** Takes new orders (Binance: status TRADING). */
  active: boolean;
  /** The exchange's own status word (Binance: TRADING, BREAK, HALT, …), null when it gives none. */
  status: string | null;
  /** Price step (tick size). */
  tickSize: Decimal;
  /** Quantity step (lot size). */
  stepSize: Decimal;
  minQty: Decimal | null;
  /** Smallest order value in quote currency. */
  minNotional: Decimal | null;
  /**
   * MAX_NUM_ORDERS: the most orders an account may have open on the symbol (Binance spot API
   * docs, filters.md#max_num_orders); null when the exchange lists none.
   */
  maxNumOrders: number | null;
  /** PERCENT_PRICE_BY_SIDE (filters.md#percent_price_by_side); null when the exchange lists none. */
  percentPriceBySide: PercentPriceBySide | null;
};

/**
 * The price band per side around the weighted average price of the last `avgPriceMins` minutes (0:
 * the last price): a buy must be within [avg × bidMultiplierDown, avg × bidMultiplierUp], a sell
 * within [avg × askMultiplierDown, avg × askMultiplierUp].
 */
export type PercentPriceBySide = {
  bidMultiplierUp: Decimal;
  bidMultiplierDown: Decimal;
  askMultiplierUp: Decimal;
  askMultiplierDown: Decimal;
  avgPriceMins: number;
};

export type Ticker = {
  symbol: string;
  last: Decimal;
  bid: Decimal | null;
  ask: Decimal | null;
  /** 24 h volume in the quote currency (null when the exchange does not say). */
  quoteVolume: Decimal | null;
  /** 24 h price change, % (null when the exchange does not say). */
  changePct: Decimal | null;
  timestamp: number | null;
};

export type BalanceEntry = { free: Decimal; used: Decimal; total: Decimal };

export type KeyPermissions = {
  /** The key may trade spot now (Binance unticks it when an unrestricted key's 30 days end). */
  spot: boolean;
  withdrawals: boolean;
  /** The key answers trusted IPs only (Binance `ipRestrict`); null where the venue does not say. */
  ipRestricted: boolean | null;
  /**
   * When the key's spot trading ends (ms): Binance's `tradingAuthorityExpirationTime`, set on keys
   * without an IP restriction (30 days after trading was enabled); null when it does not end.
   */
  tradingExpiresAt: number | null;
  /**
   * The account trades from the account type the engine uses: Bybit's Unified Trading Account
   * (`uta`/`unified` of GET /v5/user/query-api); false for a Bybit classic account; absent on
   * venues with one spot account.
   */
  unifiedAccount?: boolean;
};

/** A deposit address on the exchange; `tag` is the memo some networks need (none on TRON). */
export type DepositAddress = { address: string; tag: string | null };

export type OrderSide = 'buy' | 'sell';
export type OrderKind = 'market' | 'limit';
export type OrderStatus = 'open' | 'closed' | 'canceled' | 'expired' | 'rejected';

export type ExchangeOrder = {
  id: string;
  clientOrderId: string | null;
  symbol: string;
  side: OrderSide;
  type: OrderKind;
  status: OrderStatus;
  /** Limit price (null for a market order). */
  price: Decimal | null;
  /** Average fill price, when anything filled. */
  average: Decimal | null;
  amount: Decimal;
  filled: Decimal;
  remaining: Decimal;
  /** Quote spent or received so far (before fees). */
  cost: Decimal;
  timestamp: number | null;
  lastUpdateTimestamp: number | null;
};

export type ExchangeTrade = {
  id: string;
  orderId: string;
  /** Only when the exchange reports it on trades (Binance does not: match by orderId). */
  clientOrderId: string | null;
  symbol: string;
  side: OrderSide;
  price: Decimal;
  amount: Decimal;
  cost: Decimal;
  /** The fee as charged (Binance: in the asset received, or BNB). */
  fee: { cost: Decimal; currency: string } | null;
  /** The fee in the quote currency: at the fill price when charged in base or quote, else at the last price of FEE/QUOTE. */
  feeQuote: Decimal | null;
  takerOrMaker: 'taker' | 'maker' | null;
  timestamp: number;
};

export type PlaceOrderInput = {
  symbol: string;
  side: OrderSide;
  type: OrderKind;
  /** Limit price; should already be on the tick grid (priceToPrecision). */
  price?: Decimal | string;
  /** Base quantity: limit orders and market sells. */
  amount?: Decimal | string;
  /** Quote amount to spend: market buys. */
  quoteAmount?: Decimal | string;
  /** Deterministic id from clientOrderIdFor(): the key that makes placement idempotent. */
  clientOrderId: string;
  /**
   * This client id has never been sent (an intent written just now): no order can hold it, so the
   * look-up before the first send is skipped. Anything that may have been sent before (an intent a
   * crash left pending) leaves it unset and is looked up first.
   */
  fresh?: boolean;
};

export type PlaceOrderResult = {
  order: ExchangeOrder;
  /** true when an order with this clientOrderId already existed (this call created nothing). */
  existing: boolean;
};
