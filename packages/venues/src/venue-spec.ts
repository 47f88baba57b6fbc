/**
 * What we know about a venue, as data: the engine (`packages/exchange`, the grid services) reads it
 * to stay inside the venue's rules, the sandbox (`apps/sandbox`) reads it to enforce them. Every
 * figure cites the section of docs/venues/<venue>.md it comes from, and that page links the venue's
 * own documentation. Pure data and pure functions: no I/O, no ccxt.
 */

/** Who a pool's budget belongs to: Binance counts request weight per IP and orders per account. */
export type PoolScope = 'ip' | 'account';

/** One rate-limit pool: at most `limit` units per `windowMs`, counted in fixed windows. */
export type RatePool = {
  /** Our name for the pool, unique within the venue (e.g. `REQUEST_WEIGHT`, `ORDERS_10S`). */
  id: string;
  /** The venue's own name (`rateLimitType` on Binance). */
  venueName: string;
  scope: PoolScope;
  limit: number;
  windowMs: number;
  /**
   * The venue counts the last `windowMs` at every moment (Bybit's "rolling time window"), not
   * windows that start on the clock: a burst at the end of one second and another at the start of
   * the next land in the same rolling second.
   */
  rolling?: true;
  /** The response header reporting the pool's usage in the current window (lower case), if any. */
  usageHeader?: string;
  /**
   * What `usageHeader` counts: the units `used` in the window (Binance's X-MBX-USED-WEIGHT-1M, the
   * default) or the units `left` (Bybit's X-Bapi-Limit-Status). A `left` header names no pool: it is
   * the endpoint's answer, so it is read for the pool the request was charged in only.
   */
  usageHeaderCounts?: 'used' | 'left';
  /** The response header with the pool's limit as the venue applies it (Bybit's X-Bapi-Limit). */
  limitHeader?: string;
  /** The venue's interval words (Binance's `interval` + `intervalNum` in exchangeInfo.rateLimits). */
  interval: { unit: 'SECOND' | 'MINUTE' | 'HOUR' | 'DAY'; num: number };
  doc: string;
};

/** What one request costs in each pool it counts against (pool id → units). */
export type RequestCost = Record<string, number>;

export type RequestShape = {
  method: string;
  /** The URL path without the query, e.g. `/api/v3/order`. */
  path: string;
  /**
   * The request's parameters (query string, form body for POST/DELETE, and the top-level scalar
   * fields of a JSON object body as strings).
   */
  params: URLSearchParams;
  /** A JSON body as sent, parsed (OKX's batch of orders is a JSON array); absent otherwise. */
  body?: unknown;
};

/** How the venue answers a client over its budget, and how it bans one that keeps going. */
export type OverLimitRules = {
  /**
   * HTTP status of "over the limit, back off" (Binance 429, OKX 429; Bybit answers a UID limit with
   * 200 and `retCode` 10006 in the body).
   */
  throttledStatus: number;
  /** HTTP status of "your IP is banned" (Binance 418, Bybit 403); null when the venue names none. */
  bannedStatus: number | null;
  /**
   * What a throttled answer closes until it refills: `ip` — the IP's budget (Binance's 429 is its
   * per-IP weight, Retry-After says how long); `pool` — only the pools the refused request was
   * charged in (Bybit's 10006 and OKX's 50011 are one endpoint's limit per UID or IP), until the
   * `resetAtHeader` time or, without one, a whole window from the refusal. A throttled answer is
   * `throttledStatus` (when it is not 200) or a code whose outcome is `throttled` in the body.
   */
  throttledScope: 'ip' | 'pool';
  /** Header with the seconds to wait (both statuses). */
  retryAfterHeader: string;
  /**
   * Header that says when the pool refills, as an epoch in ms (Bybit `X-Bapi-Limit-Reset-Timestamp`),
   * for a venue that sends no `Retry-After`.
   */
  resetAtHeader?: string;
  /** The first ban's length; later bans of a repeat offender are longer, up to `maxBanMs`. */
  firstBanMs: number;
  maxBanMs: number;
  doc: string;
};

export type ClockRules = {
  /** recvWindow when the request gives none. */
  defaultRecvWindowMs: number;
  maxRecvWindowMs: number;
  /** A timestamp may be at most this far ahead of the venue's clock. */
  aheadToleranceMs: number;
  doc: string;
};

export type StreamRules = {
  /** New WebSocket connections allowed per IP per window. */
  connectionsPerWindow: number;
  connectionWindowMs: number;
  /** The venue closes a connection after this long. */
  connectionLifeMs: number;
  /** Accounts one connection may follow at once. */
  subscriptionsPerConnection: number;
  /** Subscriptions one connection may ever start. */
  subscriptionsPerConnectionLifetime: number;
  doc: string;
};

/**
 * What a venue's code means to the engine (packages/exchange classifies every failure into one of
 * these): `unknown` — the venue does not say whether the command was carried out, so the order is
 * looked up before any retry; `throttled` — over a limit, wait; `clock` — the timestamp is outside
 * the venue's window, re-sync; `duplicate` — the client order id is taken; `not-found` — no such
 * order; the rest are refusals that change nothing (`unavailable`: the venue is down or busy).
 */
export type ErrorOutcome =
  | 'unknown'
  | 'throttled'
  | 'clock'
  | 'duplicate'
  | 'not-found'
  | 'key-invalid'
  | 'permission'
  | 'not-listed'
  | 'market-closed'
  | 'below-minimum'
  | 'insufficient-balance'
  | 'rejected'
  | 'unavailable';

/** One of the venue's own codes: what it means to us and the venue's own words for it. */
export type VenueCode = {
  outcome: ErrorOutcome;
  /** The venue's message as documented (the sandbox dialect answers with it). */
  message: string;
  /** HTTP status the venue sends with it (200 where the venue reports failures in the body). */
  status: number;
  /**
   * Where one code covers several causes (Binance -2010), the outcome by the message's words; the
   * first match wins, `outcome` otherwise.
   */
  byMessage?: ReadonlyArray<{ pattern: RegExp; outcome: ErrorOutcome }>;
};

export type ErrorRules = {
  /** The field of an answer body that carries the venue's code (`code`, `retCode`). */
  codeField: string;
  /** The field with the venue's words beside it (`msg`, `retMsg`). */
  messageField: string;
  /** The code of success where the venue sends one on every answer (Bybit `0`, OKX `"0"`). */
  okCode?: string;
  /** The per-order code inside a placement's `data[]` (OKX `sCode`, with `sMsg`). */
  orderCodeField?: string;
  /** The words beside it (OKX `sMsg`). */
  orderMessageField?: string;
  /** Codes by the venue's own spelling (as a string: `-2010`, `10006`, `51008`). */
  codes: Readonly<Record<string, VenueCode>>;
  /** What a code missing from `codes` means (default `unavailable`: a definite refusal, nothing done). */
  otherwise?: (code: string) => ErrorOutcome;
  doc: string;
};

/** The client order id the venue keeps for us (our deterministic ids must fit it: docs/grid.md). */
export type ClientOrderIdRules = {
  /** The request field (`newClientOrderId`, `orderLinkId`, `clOrdId`). */
  field: string;
  maxLength: number;
  /** Every character the venue accepts, as a whole-string pattern. */
  pattern: RegExp;
  /** Where the venue refuses a repeat: among open orders only, or among all orders it keeps. */
  uniqueAmong: 'open' | 'all';
  doc: string;
};

/** What an API key is made of and how to learn what it may do. */
export type KeyRules = {
  /** The venue asks for a third credential (OKX's passphrase). */
  passphrase: boolean;
  /** What a key, a secret (and a passphrase) look like, to refuse a typo before asking the venue. */
  keyPattern: RegExp;
  secretPattern: RegExp;
  passphrasePattern?: RegExp;
  /** The call that tells what a key may do (read, spot trading, withdrawals, IP list, expiry). */
  check: { method: string; path: string };
  doc: string;
};

/** How the venue lists a market and says whether it trades. */
export type MarketRules = {
  /** The call that lists spot markets with their filters. */
  list: { method: string; path: string };
  /** The field of a market with its status, and the value that means it trades. */
  statusField: string;
  tradingStatus: string;
  doc: string;
};

/** The REST calls of a grid's life, as the venue spells them (the sandbox dialect serves these). */
export type VenueEndpoints = Readonly<
  Record<
    'serverTime' | 'placeOrder' | 'cancelOrder' | 'queryOrder' | 'openOrders' | 'balances' | 'myTrades',
    { method: string; path: string }
  >
>;

export type VenueSpec = {
  /** The ccxt id. */
  id: string;
  name: string;
  /** Base URL of the live REST API and of its test environment (testnet, demo trading). */
  urls: { rest: string; test: string; doc: string };
  endpoints: VenueEndpoints;
  errors: ErrorRules;
  clientOrderId: ClientOrderIdRules;
  keys: KeyRules;
  markets: MarketRules;
  /**
   * Rules of this table we could not confirm in the venue's own documentation, by field path
   * (`userStream.connectionLifeMs`): they are not guessed, and the engine treats them with care.
   */
  unverified?: readonly string[];
  pools: readonly RatePool[];
  /** What a request costs, pool by pool (every pool the request counts against). */
  requestCost(request: RequestShape): RequestCost;
  overLimit: OverLimitRules;
  clock: ClockRules;
  userStream: StreamRules;
  /** The most open orders one symbol may hold (MAX_NUM_ORDERS), when the market gives none. */
  defaultMaxOpenOrdersPerSymbol: number;
};
