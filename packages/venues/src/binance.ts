import type { RatePool, RequestCost, RequestShape, VenueSpec } from './venue-spec';

const MINUTE = 60_000;
const DOC = 'docs/venues/binance.md';

/**
 * Binance spot's published pools (GET /api/v3/exchangeInfo `rateLimits`, as a live answer of
 * 2025-06 lists them): request weight and raw requests per IP, orders per account.
 * docs/venues/binance.md#rate-limits
 */
const pools: readonly RatePool[] = [
  {
    id: 'REQUEST_WEIGHT',
    venueName: 'REQUEST_WEIGHT',
    scope: 'ip',
    limit: 6000,
    windowMs: MINUTE,
    usageHeader: 'x-mbx-used-weight-1m',
    interval: { unit: 'MINUTE', num: 1 },
    doc: `${DOC}#rate-limits`,
  },
  {
    id: 'RAW_REQUESTS',
    venueName: 'RAW_REQUESTS',
    scope: 'ip',
    limit: 61_000,
    windowMs: 5 * MINUTE,
    interval: { unit: 'MINUTE', num: 5 },
    doc: `${DOC}#rate-limits`,
  },
  {
    id: 'ORDERS_10S',
    venueName: 'ORDERS',
    scope: 'account',
    limit: 100,
    windowMs: 10_000,
    usageHeader: 'x-mbx-order-count-10s',
    interval: { unit: 'SECOND', num: 10 },
    doc: `${DOC}#order-limits`,
  },
  {
    id: 'ORDERS_1D',
    venueName: 'ORDERS',
    scope: 'account',
    limit: 200_000,
    windowMs: 24 * 60 * MINUTE,
    usageHeader: 'x-mbx-order-count-1d',
    interval: { unit: 'DAY', num: 1 },
    doc: `${DOC}#order-limits`,
  },
];

/** How many symbols a `symbols=["A","B"]` parameter names (0 when absent or unreadable). */
const symbolCount = (params: URLSearchParams): number => {
  const raw = params.get('symbols');
  if (!raw) return 0;
  try {
    const parsed = JSON.parse(raw) as unknown;
    return Array.isArray(parsed) ? parsed.length : 0;
  } catch {
    return 0;
  }
};

/** GET /api/v3/depth: the weight grows with `limit` (default 100). */
const depthWeight = (params: URLSearchParams): number => {
  const limit = Number(params.get('limit') ?? 100);
  if (limit <= 100) return 5;
  if (limit <= 500) return 25;
  if (limit <= 1000) return 50;
  return 250;
};

/** Ticker families: one symbol, a `symbols` list (by its length), or every symbol. */
const tickerWeight = (
  params: URLSearchParams,
  one: number,
  every: number,
  bySymbols: (n: number) => number,
): number => {
  if (params.has('symbol')) return one;
  const n = symbolCount(params);
  return n > 0 ? bySymbols(n) : every;
};

/**
 * Request weight of one REST call, from each endpoint's "Weight" line in Binance's rest-api.md
 * (docs/venues/binance.md#request-weight). An endpoint we do not list weighs 1.
 */
export const binanceRequestWeight = ({ method, path, params }: RequestShape): number => {
  switch (`${method.toUpperCase()} ${path}`) {
    case 'GET /api/v3/ping':
    case 'GET /api/v3/time':
      return 1;
    case 'GET /api/v3/exchangeInfo':
      return 20;
    case 'GET /api/v3/depth':
      return depthWeight(params);
    case 'GET /api/v3/trades':
    case 'GET /api/v3/historicalTrades':
      return 25;
    case 'GET /api/v3/aggTrades':
      return 4;
    case 'GET /api/v3/klines':
    case 'GET /api/v3/uiKlines':
    case 'GET /api/v3/avgPrice':
      return 2;
    case 'GET /api/v3/ticker/24hr':
      return tickerWeight(params, 2, 80, (n) => (n <= 20 ? 2 : n <= 100 ? 40 : 80));
    case 'GET /api/v3/ticker/price':
    case 'GET /api/v3/ticker/bookTicker':
      return tickerWeight(params, 2, 4, () => 4);
    case 'GET /api/v3/ticker':
    case 'GET /api/v3/ticker/tradingDay':
      return tickerWeight(params, 4, 4, (n) => Math.min(4 * n, 200));
    case 'POST /api/v3/order':
    case 'DELETE /api/v3/order':
    case 'DELETE /api/v3/openOrders':
      return 1;
    case 'POST /api/v3/order/test':
      return params.get('computeCommissionRates') === 'true' ? 20 : 1;
    case 'GET /api/v3/order':
      return 4;
    case 'GET /api/v3/openOrders':
      return params.has('symbol') ? 6 : 80;
    case 'GET /api/v3/allOrders':
    case 'GET /api/v3/account':
    case 'GET /api/v3/account/commission':
      return 20;
    case 'GET /api/v3/myTrades':
      return params.has('orderId') ? 5 : 20;
    case 'GET /api/v3/rateLimit/order':
      return 40;
    // WebSocket API requests weigh on the same per-IP pool (web-socket-api.md#ip-limits).
    case 'WS userDataStream.subscribe.signature':
      return 2;
    default:
      return 1;
  }
};

/** New orders count against the account's ORDERS pools (rest-api.md "Unfilled Order Count: 1"). */
const isNewOrder = ({ method, path }: RequestShape) =>
  method.toUpperCase() === 'POST' && path === '/api/v3/order';

/**
 * Every pool a request counts against. SAPI (`/sapi/…`, the wallet family) has limits of its own
 * per IP and per UID that our calls (a key check, a deposit address) stay far below: they are
 * counted as raw requests only. docs/venues/binance.md#request-weight
 */
const requestCost = (request: RequestShape): RequestCost => {
  if (request.method === 'WS') return { REQUEST_WEIGHT: binanceRequestWeight(request) };
  if (!request.path.startsWith('/api/')) return { RAW_REQUESTS: 1 };
  const cost: RequestCost = { REQUEST_WEIGHT: binanceRequestWeight(request), RAW_REQUESTS: 1 };
  if (isNewOrder(request)) {
    cost.ORDERS_10S = 1;
    cost.ORDERS_1D = 1;
  }
  return cost;
};

/**
 * Binance's codes the engine meets, with the HTTP status and words Binance sends them with
 * (errors.md). -2010 covers several refusals: the message tells which. docs/venues/binance.md#errors
 */
const codes: VenueSpec['errors']['codes'] = {
  '-1000': {
    outcome: 'unknown',
    status: 400,
    message: 'An unknown error occurred while processing the request.',
  },
  '-1001': {
    outcome: 'unknown',
    status: 400,
    message: 'Internal error; unable to process your request. Please try again.',
  },
  '-1003': { outcome: 'throttled', status: 429, message: 'Too many requests queued.' },
  '-1006': {
    outcome: 'unknown',
    status: 400,
    message: 'An unexpected response was received from the message bus. Execution status unknown.',
  },
  '-1007': {
    outcome: 'unknown',
    status: 503,
    message:
      'Timeout waiting for response from backend server. Send status unknown; execution status unknown.',
  },
  '-1008': {
    outcome: 'throttled',
    status: 503,
    message: 'Server is currently overloaded with other requests. Please try again in a few minutes.',
  },
  '-1015': { outcome: 'throttled', status: 429, message: 'Too many new orders.' },
  '-1021': {
    outcome: 'clock',
    status: 400,
    message: 'Timestamp for this request is outside of the recvWindow.',
  },
  '-1002': {
    outcome: 'key-invalid',
    status: 401,
    message: 'You are not authorized to execute this request.',
  },
  '-1022': { outcome: 'key-invalid', status: 400, message: 'Signature for this request is not valid.' },
  '-2008': { outcome: 'key-invalid', status: 401, message: 'Invalid Api-Key ID.' },
  '-2014': { outcome: 'key-invalid', status: 401, message: 'API-key format invalid.' },
  '-2015': {
    outcome: 'key-invalid',
    status: 401,
    message: 'Invalid API-key, IP, or permissions for action.',
  },
  '-1121': { outcome: 'not-listed', status: 400, message: 'Invalid symbol.' },
  '-2011': { outcome: 'not-found', status: 400, message: 'Unknown order sent.' },
  '-2013': { outcome: 'not-found', status: 400, message: 'Order does not exist.' },
  '-1013': {
    outcome: 'rejected',
    status: 400,
    message: 'Filter failure: NOTIONAL',
    byMessage: [{ pattern: /NOTIONAL/, outcome: 'below-minimum' }],
  },
  '-2010': {
    outcome: 'rejected',
    status: 400,
    message: 'Account has insufficient balance for requested action.',
    byMessage: [
      { pattern: /Duplicate order/i, outcome: 'duplicate' },
      { pattern: /insufficient balance/i, outcome: 'insufficient-balance' },
      { pattern: /Market is closed/i, outcome: 'market-closed' },
    ],
  },
};

export const binance: VenueSpec = {
  id: 'binance',
  name: 'Binance',
  // docs/venues/binance.md#endpoints
  urls: { rest: 'https://api.binance.com', test: 'https://testnet.binance.vision', doc: `${DOC}#endpoints` },
  endpoints: {
    serverTime: { method: 'GET', path: '/api/v3/time' },
    placeOrder: { method: 'POST', path: '/api/v3/order' },
    cancelOrder: { method: 'DELETE', path: '/api/v3/order' },
    queryOrder: { method: 'GET', path: '/api/v3/order' },
    openOrders: { method: 'GET', path: '/api/v3/openOrders' },
    balances: { method: 'GET', path: '/api/v3/account' },
    myTrades: { method: 'GET', path: '/api/v3/myTrades' },
  },
  errors: {
    codeField: 'code',
    messageField: 'msg',
    codes,
    // errors.md: -1xxx are the request's faults ("General Server or Network issues" aside, listed
    // above), -2xxx the order's; an unlisted one of the first is a refusal of what we sent.
    otherwise: (code) => (code.startsWith('-1') ? 'rejected' : 'unavailable'),
    doc: `${DOC}#errors`,
  },
  // rest-api.md, POST /api/v3/order: newClientOrderId, "A unique id among open orders"; the legal
  // range errors.md -1100 names. docs/venues/binance.md#client-order-ids
  clientOrderId: {
    field: 'newClientOrderId',
    maxLength: 36,
    pattern: /^[.A-Z:/a-z0-9_-]{1,36}$/,
    uniqueAmong: 'open',
    doc: `${DOC}#client-order-ids`,
  },
  // The spec's key rule (50–100 letters and digits; Binance's keys are 64); the permissions from
  // GET /sapi/v1/account/apiRestrictions. docs/venues/binance.md#keys
  keys: {
    passphrase: false,
    keyPattern: /^[A-Za-z0-9]{50,100}$/,
    secretPattern: /^[A-Za-z0-9]{50,100}$/,
    check: { method: 'GET', path: '/sapi/v1/account/apiRestrictions' },
    doc: `${DOC}#keys`,
  },
  // GET /api/v3/exchangeInfo, symbols[].status. docs/venues/binance.md#filters
  markets: {
    list: { method: 'GET', path: '/api/v3/exchangeInfo' },
    statusField: 'status',
    tradingStatus: 'TRADING',
    doc: `${DOC}#filters`,
  },
  pools,
  requestCost,
  // rest-api.md "IP Limits": 429 over the limit, 418 an automated ban for a client that keeps
  // sending after 429s, "from 2 minutes to 3 days", Retry-After in seconds on both.
  // docs/venues/binance.md#bans
  overLimit: {
    throttledStatus: 429,
    // A 429 is the IP's weight (or, with -1015, the account's orders): docs/venues/binance.md#bans
    throttledScope: 'ip',
    bannedStatus: 418,
    retryAfterHeader: 'retry-after',
    firstBanMs: 2 * MINUTE,
    maxBanMs: 3 * 24 * 60 * MINUTE,
    doc: `${DOC}#bans`,
  },
  // rest-api.md "Timing security". docs/venues/binance.md#clock
  clock: { defaultRecvWindowMs: 5000, maxRecvWindowMs: 60_000, aheadToleranceMs: 1000, doc: `${DOC}#clock` },
  // web-socket-api.md "Connection limits" and "User Data Stream subscriptions".
  // docs/venues/binance.md#user-data-stream
  userStream: {
    connectionsPerWindow: 300,
    connectionWindowMs: 5 * MINUTE,
    connectionLifeMs: 24 * 60 * MINUTE,
    subscriptionsPerConnection: 1000,
    subscriptionsPerConnectionLifetime: 65_535,
    doc: `${DOC}#user-data-stream`,
  },
  // filters.md MAX_NUM_ORDERS; Binance lists 200 on its spot symbols. docs/venues/binance.md#filters
  defaultMaxOpenOrdersPerSymbol: 200,
};
