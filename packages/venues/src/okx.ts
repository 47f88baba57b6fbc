import type { RatePool, RequestCost, RequestShape, VenueSpec } from './venue-spec';

const SECOND = 1000;
const HOUR = 60 * 60 * SECOND;
const DOC = 'docs/venues/okx.md';

/** OKX states nearly every limit as "N requests per 2 seconds". */
const TWO_SECONDS = { windowMs: 2 * SECOND, interval: { unit: 'SECOND', num: 2 } } as const;

/**
 * One pool per endpoint we call, each with the endpoint's own "Rate Limit" line. Private calls count
 * per User ID (a sub-account is a User ID of its own); place, cancel and the order query count per
 * User ID and instrument on OKX, which our scopes cannot say: they are counted per account here, the
 * stricter reading. Public calls count per IP. OKX sends no usage header.
 * docs/venues/okx.md#rate-limits
 */
const pools: readonly RatePool[] = [
  {
    id: 'PLACE_ORDER',
    venueName: 'POST /api/v5/trade/order',
    scope: 'account',
    limit: 60,
    ...TWO_SECONDS,
    doc: `${DOC}#rate-limits`,
  },
  {
    // Place multiple orders: 300 orders per 2 s per User ID and instrument, counted by orders (ccxt's
    // cost 1/15 of 20 per 2 s agrees); a batch of one spends PLACE_ORDER instead (below).
    // docs/venues/okx.md#rate-limits
    id: 'BATCH_ORDERS',
    venueName: 'POST /api/v5/trade/batch-orders',
    scope: 'account',
    limit: 300,
    ...TWO_SECONDS,
    doc: `${DOC}#rate-limits`,
  },
  {
    id: 'CANCEL_ORDER',
    venueName: 'POST /api/v5/trade/cancel-order',
    scope: 'account',
    limit: 60,
    ...TWO_SECONDS,
    doc: `${DOC}#rate-limits`,
  },
  {
    id: 'ORDER_DETAILS',
    venueName: 'GET /api/v5/trade/order',
    scope: 'account',
    limit: 60,
    ...TWO_SECONDS,
    doc: `${DOC}#rate-limits`,
  },
  {
    id: 'ORDERS_PENDING',
    venueName: 'GET /api/v5/trade/orders-pending',
    scope: 'account',
    limit: 60,
    ...TWO_SECONDS,
    doc: `${DOC}#rate-limits`,
  },
  {
    id: 'FILLS',
    venueName: 'GET /api/v5/trade/fills',
    scope: 'account',
    limit: 60,
    ...TWO_SECONDS,
    doc: `${DOC}#rate-limits`,
  },
  {
    // Get transaction details (last 3 months): 10 requests per 2 s per User ID. ccxt's
    // fetchMyTrades reads our trades here, whatever their age (its cost 2 of 20 per 2 s agrees).
    // docs/venues/okx.md#rate-limits
    id: 'FILLS_HISTORY',
    venueName: 'GET /api/v5/trade/fills-history',
    scope: 'account',
    limit: 10,
    ...TWO_SECONDS,
    doc: `${DOC}#rate-limits`,
  },
  {
    id: 'BALANCE',
    venueName: 'GET /api/v5/account/balance',
    scope: 'account',
    limit: 10,
    ...TWO_SECONDS,
    doc: `${DOC}#rate-limits`,
  },
  {
    id: 'ACCOUNT_CONFIG',
    venueName: 'GET /api/v5/account/config',
    scope: 'account',
    limit: 5,
    ...TWO_SECONDS,
    doc: `${DOC}#rate-limits`,
  },
  {
    id: 'SYSTEM_TIME',
    venueName: 'GET /api/v5/public/time',
    scope: 'ip',
    limit: 10,
    ...TWO_SECONDS,
    doc: `${DOC}#rate-limits`,
  },
  {
    // Per IP and instrument type: we only ever ask for SPOT.
    id: 'INSTRUMENTS',
    venueName: 'GET /api/v5/public/instruments',
    scope: 'ip',
    limit: 20,
    ...TWO_SECONDS,
    doc: `${DOC}#rate-limits`,
  },
  {
    id: 'TICKER',
    venueName: 'GET /api/v5/market/ticker',
    scope: 'ip',
    limit: 20,
    ...TWO_SECONDS,
    doc: `${DOC}#rate-limits`,
  },
  {
    id: 'TICKERS',
    venueName: 'GET /api/v5/market/tickers',
    scope: 'ip',
    limit: 20,
    ...TWO_SECONDS,
    doc: `${DOC}#rate-limits`,
  },
  {
    id: 'CANDLES',
    venueName: 'GET /api/v5/market/candles',
    scope: 'ip',
    limit: 40,
    ...TWO_SECONDS,
    doc: `${DOC}#rate-limits`,
  },
];

/**
 * What each call costs: 1 in its own pool. The WebSocket order operations (`op` `order`,
 * `cancel-order`) share the REST budgets ("rate limits are shared across the REST and WebSocket
 * channels"). A call not listed is not costed. docs/venues/okx.md#rate-limits
 */
const COSTS: Readonly<Record<string, RequestCost>> = {
  'POST /api/v5/trade/order': { PLACE_ORDER: 1 },
  'WS order': { PLACE_ORDER: 1 },
  'POST /api/v5/trade/cancel-order': { CANCEL_ORDER: 1 },
  'WS cancel-order': { CANCEL_ORDER: 1 },
  'GET /api/v5/trade/order': { ORDER_DETAILS: 1 },
  'GET /api/v5/trade/orders-pending': { ORDERS_PENDING: 1 },
  'GET /api/v5/trade/fills': { FILLS: 1 },
  'GET /api/v5/trade/fills-history': { FILLS_HISTORY: 1 },
  'GET /api/v5/account/balance': { BALANCE: 1 },
  'GET /api/v5/account/config': { ACCOUNT_CONFIG: 1 },
  'GET /api/v5/public/time': { SYSTEM_TIME: 1 },
  'GET /api/v5/public/instruments': { INSTRUMENTS: 1 },
  'GET /api/v5/market/ticker': { TICKER: 1 },
  'GET /api/v5/market/tickers': { TICKERS: 1 },
  'GET /api/v5/market/candles': { CANDLES: 1 },
};

/**
 * Place multiple orders ("Rate Limit: 300 orders per 2 seconds", "Rate limit rule: User ID +
 * Instrument ID"): "unlike other endpoints, the rate limit of this endpoint is determined by the
 * number of orders. If there is only one order in the request, it will consume the rate limit of
 * `Place order`" — which is what ccxt's createOrder sends (a list of one). A body we cannot read
 * counts as one order. docs/venues/okx.md#rate-limits
 */
const batchCost = (body: unknown): RequestCost => {
  const orders = Array.isArray(body) && body.length > 0 ? body.length : 1;
  return orders === 1 ? { PLACE_ORDER: 1 } : { BATCH_ORDERS: orders };
};

const requestCost = ({ method, path, body }: RequestShape): RequestCost => {
  const call = `${method.toUpperCase()} ${path}`;
  if (call === 'POST /api/v5/trade/batch-orders') return batchCost(body);
  return { ...COSTS[call] };
};

/**
 * OKX's codes the engine meets, with the HTTP status and words of OKX's error table ("Error Code ›
 * REST API › Public", 50000–53999). Trade codes (51xxx) arrive as `sCode` inside `data[]`, with the
 * top-level `code` "1" ("Operation failed."). docs/venues/okx.md#errors
 */
const codes: VenueSpec['errors']['codes'] = {
  '1': {
    // A placement or cancel refused as a whole: the reason is the entry's `sCode`.
    outcome: 'rejected',
    status: 200,
    message: 'Operation failed.',
  },
  // Unknown outcome: OKX says outright that 50004 and 51149 are neither success nor failure.
  '50004': {
    outcome: 'unknown',
    status: 400,
    message:
      'API endpoint request timeout. (does not mean that the request was successful or failed, please check the request result).',
  },
  '51149': {
    outcome: 'unknown',
    status: 500,
    message:
      'Order timed out. Please try again. (does not mean that the request was successful or failed, please check the request result)',
  },
  // OKX does not say whether these were carried out: unknown, listed in `unverified`.
  '50001': {
    outcome: 'unknown',
    status: 503,
    message: 'Service temporarily unavailable. Please try again later.',
  },
  '50026': { outcome: 'unknown', status: 500, message: 'System error. Try again later' },
  '51054': { outcome: 'unknown', status: 500, message: 'Request timed out. Please try again.' },
  // Over a limit. OKX's table lists 50011 twice: HTTP 429 "Too Many Requests" (what live answers carry)
  // and HTTP 200 "Rate limit reached. Please refer to API documentation and throttle requests
  // accordingly." — the code in the body counts. docs/venues/okx.md#bans
  '50011': { outcome: 'throttled', status: 429, message: 'Too Many Requests' },
  '50061': {
    outcome: 'throttled',
    status: 200,
    message: "You've reached the maximum order rate limit for this account.",
  },
  '50040': { outcome: 'throttled', status: 200, message: 'Too frequent operations, please try again later' },
  '50013': { outcome: 'unavailable', status: 429, message: 'Systems are busy. Please try again later.' },
  '50005': { outcome: 'unavailable', status: 410, message: 'API endpoint is inactive or unavailable.' },
  // docs/venues/okx.md#clock
  '50102': { outcome: 'clock', status: 401, message: 'Timestamp request expired.' },
  // The key. docs/venues/okx.md#keys
  '50100': { outcome: 'key-invalid', status: 400, message: 'API frozen, please contact customer service.' },
  '50101': { outcome: 'key-invalid', status: 401, message: 'APIKey does not match current environment.' },
  '50105': {
    outcome: 'key-invalid',
    status: 401,
    message: 'Request header "OK-ACCESS-PASSPHRASE" incorrect.',
  },
  '50110': {
    outcome: 'key-invalid',
    status: 401,
    message: "Your IP {param0} is not included in your API key's IP whitelist.",
  },
  // A signing header missing altogether ("Error code › REST API › Public", 50103–50107).
  '50103': {
    outcome: 'key-invalid',
    status: 401,
    message: 'Request header "OK-ACCESS-KEY" cannot be empty.',
  },
  '50104': {
    outcome: 'key-invalid',
    status: 401,
    message: 'Request header "OK-ACCESS-PASSPHRASE" cannot be empty.',
  },
  '50106': {
    outcome: 'key-invalid',
    status: 401,
    message: 'Request header "OK-ACCESS-SIGN" cannot be empty.',
  },
  '50107': {
    outcome: 'key-invalid',
    status: 401,
    message: 'Request header "OK-ACCESS-TIMESTAMP" cannot be empty.',
  },
  '50111': { outcome: 'key-invalid', status: 401, message: 'Invalid OK-ACCESS-KEY.' },
  '50112': { outcome: 'key-invalid', status: 401, message: 'Invalid OK-ACCESS-TIMESTAMP.' },
  '50113': { outcome: 'key-invalid', status: 401, message: 'Invalid signature.' },
  '50119': { outcome: 'key-invalid', status: 200, message: "API key doesn't exist" },
  '50030': {
    outcome: 'permission',
    status: 200,
    message: "You don't have permission to use this API endpoint",
  },
  '50035': {
    outcome: 'permission',
    status: 403,
    message: 'This endpoint requires that APIKey must be bound to IP',
  },
  '50120': {
    outcome: 'permission',
    status: 200,
    message: "This API key doesn't have permission to use this function",
  },
  '50121': {
    outcome: 'permission',
    status: 200,
    message: "You can't access our services through the IP address ({param0})",
  },
  '51024': { outcome: 'permission', status: 200, message: 'Trading account is blocked.' },
  // Orders. docs/venues/okx.md#client-order-ids, docs/venues/okx.md#filters
  '51016': { outcome: 'duplicate', status: 200, message: 'Client order ID already exists.' },
  '51603': { outcome: 'not-found', status: 200, message: 'Order does not exist.' },
  '51400': {
    outcome: 'not-found',
    status: 200,
    message: 'Order cancellation failed as the order has been filled, canceled or does not exist.',
  },
  '51008': {
    // Sent with a sub-code (51008_1000 …); 1000 is the plain spot case.
    outcome: 'insufficient-balance',
    status: 200,
    message: 'Order failed. Insufficient {param0} balance in account',
  },
  '51131': { outcome: 'insufficient-balance', status: 200, message: 'Insufficient balance.' },
  '51127': { outcome: 'insufficient-balance', status: 200, message: 'Available balance is 0.' },
  '51020': {
    outcome: 'below-minimum',
    status: 200,
    message: 'Your order should meet or exceed the minimum order amount.',
  },
  '50122': { outcome: 'below-minimum', status: 200, message: 'Order amount must exceed minimum amount' },
  '51001': {
    outcome: 'not-listed',
    status: 200,
    message: "Instrument ID, Instrument ID code or Spread ID doesn't exist.",
  },
  '51087': { outcome: 'not-listed', status: 200, message: 'Listing canceled for this crypto' },
  '51021': { outcome: 'market-closed', status: 200, message: 'The pair or contract is not yet listed' },
  '51022': { outcome: 'market-closed', status: 200, message: 'Contract suspended.' },
  '50014': { outcome: 'rejected', status: 400, message: 'Parameter {param0} cannot be empty.' },
  '51000': { outcome: 'rejected', status: 400, message: 'Parameter {param0} error' },
  '51006': {
    outcome: 'rejected',
    status: 200,
    message:
      'Order price is not within the price limit (max buy price: {param0} , min sell price: {param1} )',
  },
  // A spot limit price beyond the price limit of its side ("Error code › REST API › Trade").
  '51137': {
    outcome: 'rejected',
    status: 200,
    message: 'The highest price limit for buy orders is {param0}',
  },
  '51138': {
    outcome: 'rejected',
    status: 200,
    message: 'The lowest price limit for sell orders is {param0}',
  },
  '51121': {
    outcome: 'rejected',
    status: 200,
    message: 'Order quantity must be a multiple of the lot size.',
  },
  '51025': { outcome: 'rejected', status: 200, message: 'Order count exceeds the limit.' },
  '51174': {
    outcome: 'rejected',
    status: 200,
    message: 'Order failed, number of pending orders for {param0} exceed the limit of {param1}.',
  },
  '51410': {
    outcome: 'rejected',
    status: 200,
    message: 'Cancellation failed as the order is already in canceling status or pending settlement.',
  },
  // The private WebSocket's own codes, sent as `{"event":"error","code","msg"}` ("Error code ›
  // WebSocket › Public"): a WebSocket frame has no HTTP status; 200 stands for it. docs/venues/okx.md#user-data-stream
  '60004': { outcome: 'key-invalid', status: 200, message: 'Invalid timestamp' },
  '60005': { outcome: 'key-invalid', status: 200, message: 'Invalid apiKey' },
  '60006': { outcome: 'clock', status: 200, message: 'Timestamp request expired' },
  '60007': { outcome: 'key-invalid', status: 200, message: 'Invalid sign' },
  '60009': { outcome: 'key-invalid', status: 200, message: 'Login failure' },
  '60011': { outcome: 'rejected', status: 200, message: 'Please log in' },
  '60012': { outcome: 'rejected', status: 200, message: 'Invalid request' },
  '60013': { outcome: 'rejected', status: 200, message: 'Invalid args' },
  '60018': {
    outcome: 'rejected',
    status: 200,
    message:
      "Wrong URL or {param0} doesn't exist. Please use the correct URL, channel and parameters referring to API document.",
  },
  '60024': { outcome: 'key-invalid', status: 200, message: 'Wrong passphrase' },
};

/**
 * The private WebSocket beyond the shared StreamRules (WebSocket › Connect, Login, Notification;
 * Order channel): its hosts (demo trading has its own), the login's signed text and expiry, the
 * heartbeat (a connection silent for 30 s is closed: the client sends the text `ping` after N < 30 s
 * of silence and expects `pong`) and the notice sent before a service upgrade closes the connection.
 * docs/venues/okx.md#user-data-stream
 */
export const okxStream = {
  hosts: { live: 'wss://ws.okx.com:8443', test: 'wss://wspap.okx.com:8443' },
  path: '/ws/v5/private',
  /** The login's sign: Base64 HMAC-SHA256 of timestamp (s) + `GET` + this path. */
  loginPath: '/users/self/verify',
  /** A login's timestamp expires this long after it. */
  loginExpiresMs: 30 * SECOND,
  /** The server closes a connection with nothing sent either way for this long. */
  silenceCloseMs: 30 * SECOND,
  /** `event: "notice"` with this code: the connection closes within 60 s for an upgrade. */
  upgradeNoticeCode: '64008',
  doc: `${DOC}#user-data-stream`,
};

export const okx: VenueSpec & { stream: typeof okxStream } = {
  id: 'okx',
  name: 'OKX',
  // "Production trading services" and "Demo trading services" (July 2026): one REST host for both,
  // demo selected by the `x-simulated-trading: 1` header. docs/venues/okx.md#endpoints,
  // docs/venues/okx.md#demo-trading
  urls: { rest: 'https://openapi.okx.com', test: 'https://openapi.okx.com', doc: `${DOC}#endpoints` },
  endpoints: {
    serverTime: { method: 'GET', path: '/api/v5/public/time' },
    placeOrder: { method: 'POST', path: '/api/v5/trade/order' },
    cancelOrder: { method: 'POST', path: '/api/v5/trade/cancel-order' },
    queryOrder: { method: 'GET', path: '/api/v5/trade/order' },
    openOrders: { method: 'GET', path: '/api/v5/trade/orders-pending' },
    balances: { method: 'GET', path: '/api/v5/account/balance' },
    myTrades: { method: 'GET', path: '/api/v5/trade/fills' },
  },
  errors: {
    codeField: 'code',
    messageField: 'msg',
    okCode: '0',
    orderCodeField: 'sCode',
    orderMessageField: 'sMsg',
    codes,
    doc: `${DOC}#errors`,
  },
  // Place order, clOrdId: case-sensitive letters and digits, 1–32; unique among the account's pending
  // (live, partially_filled) orders, reusable once an order has ended. docs/venues/okx.md#client-order-ids
  clientOrderId: {
    field: 'clOrdId',
    maxLength: 32,
    pattern: /^[A-Za-z0-9]{1,32}$/,
    uniqueAmong: 'open',
    doc: `${DOC}#client-order-ids`,
  },
  // OKX's examples show a UUID-shaped key and a 32-hex-digit secret; the passphrase is the user's
  // (8–32 with complexity for keys made by the sub-account endpoint). None is a stated rule for every
  // key, so the patterns are a little wider and unverified. docs/venues/okx.md#keys
  keys: {
    passphrase: true,
    keyPattern: /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/,
    secretPattern: /^[0-9A-Fa-f]{32}$/,
    passphrasePattern: /^[\x21-\x7E]{1,32}$/,
    check: { method: 'GET', path: '/api/v5/account/config' },
    doc: `${DOC}#keys`,
  },
  // GET /api/v5/public/instruments?instType=SPOT, data[].state. docs/venues/okx.md#filters
  markets: {
    list: { method: 'GET', path: '/api/v5/public/instruments' },
    statusField: 'state',
    tradingStatus: 'live',
    doc: `${DOC}#filters`,
  },
  unverified: [
    'keys.keyPattern',
    'keys.secretPattern',
    'keys.passphrasePattern',
    'overLimit.retryAfterHeader',
    'userStream.connectionLifeMs',
    'userStream.subscriptionsPerConnection',
    'userStream.subscriptionsPerConnectionLifetime',
    'errors.codes.50001.outcome',
    'errors.codes.50026.outcome',
    'errors.codes.51054.outcome',
    // Read from mirrors of OKX's error tables (its Web3 developer pages, ccxt's exceptions, a
    // third-party list), not from a stored copy of docs-v5 itself. docs/venues/okx.md
    'errors.codes.51137.message',
    'errors.codes.51138.message',
    'errors.codes.60009.message',
    'errors.codes.60018.message',
  ],
  pools,
  requestCost,
  // Over a limit: 50011 with HTTP 429. OKX documents no IP ban (no ban status, no ban length: both
  // lengths 0) and no header saying how long to wait (none: '' — the windows are 2 s).
  // docs/venues/okx.md#bans
  overLimit: {
    throttledStatus: 429,
    // 50011 is one endpoint's limit (per User ID, or per IP for public calls): that pool waits.
    throttledScope: 'pool',
    bannedStatus: null,
    retryAfterHeader: '',
    firstBanMs: 0,
    maxBanMs: 0,
    doc: `${DOC}#bans`,
  },
  // REST authentication: a timestamp more than 30 s from OKX's clock, either way, is 50102; OKX has
  // no recvWindow, so the window is fixed. docs/venues/okx.md#clock
  clock: {
    defaultRecvWindowMs: 30 * SECOND,
    maxRecvWindowMs: 30 * SECOND,
    aheadToleranceMs: 30 * SECOND,
    doc: `${DOC}#clock`,
  },
  // WebSocket › Connect: 3 connection requests per second per IP; 480 subscribe/unsubscribe/login per
  // hour per connection (stands in for the lifetime count). No maximum life and no accounts per
  // connection are documented: 24 h and 1 are ours, unverified. docs/venues/okx.md#user-data-stream
  userStream: {
    connectionsPerWindow: 3,
    connectionWindowMs: SECOND,
    connectionLifeMs: 24 * HOUR,
    subscriptionsPerConnection: 1,
    subscriptionsPerConnectionLifetime: 480,
    doc: `${DOC}#user-data-stream`,
  },
  stream: okxStream,
  // General info: at most 500 pending orders per instrument (4,000 in all). docs/venues/okx.md#filters
  defaultMaxOpenOrdersPerSymbol: 500,
};
