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
  /** The response header reporting the pool's usage in the current window (lower case), if any. */
  usageHeader?: string;
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
  /** The request's parameters (query string, or form body for POST/DELETE). */
  params: URLSearchParams;
};

/** How the venue answers a client over its budget, and how it bans one that keeps going. */
export type OverLimitRules = {
  /** HTTP status of "over the limit, back off" (Binance 429). */
  throttledStatus: number;
  /** HTTP status of "your IP is banned" (Binance 418). */
  bannedStatus: number;
  /** Header with the seconds to wait (both statuses). */
  retryAfterHeader: string;
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

export type VenueSpec = {
  /** The ccxt id. */
  id: string;
  name: string;
  pools: readonly RatePool[];
  /** What a request costs, pool by pool (every pool the request counts against). */
  requestCost(request: RequestShape): RequestCost;
  overLimit: OverLimitRules;
  clock: ClockRules;
  userStream: StreamRules;
  /** The most open orders one symbol may hold (MAX_NUM_ORDERS), when the market gives none. */
  defaultMaxOpenOrdersPerSymbol: number;
};
