import type { RatePool, RequestCost, RequestShape, VenueSpec } from './venue-spec';

const SECOND = 1000;
const MINUTE = 60_000;
const DOC = 'docs/venues/bybit.md';

/**
 * Bybit counts requests per IP (600 in 5 s, every REST call) and per UID per endpoint (a budget a
 * second for each private path, the `spot` column of the "UTA2.0 Pro" table for the order calls).
 * Both count in rolling windows ("The API rate limit is based on the rolling time window per second
 * and UID"; the IP's "no more than 600 requests … in any 5-second window"): `rolling`, so the
 * budget counts them in staggered windows and the sandbox in a sliding log. Each per-UID answer
 * carries `X-Bapi-Limit` (the endpoint's limit), `X-Bapi-Limit-Status` (what is LEFT of it, not
 * what is used: used = limit − status) and `X-Bapi-Limit-Reset-Timestamp`.
 * docs/venues/bybit.md#rate-limits
 */
const uidPool = (id: string, venueName: string, perSecond: number): RatePool => ({
  id,
  venueName,
  scope: 'account',
  limit: perSecond,
  windowMs: SECOND,
  rolling: true,
  // Remaining requests of the endpoint's window (see above), reported on every per-UID answer, and
  // the endpoint's limit as Bybit applies it to this UID (it may have been raised on request).
  // rate-limit.mdx "API rate limit": "X-Bapi-Limit-Status - your remaining requests for current
  // endpoint; X-Bapi-Limit - your current limit for current endpoint".
  usageHeader: 'x-bapi-limit-status',
  usageHeaderCounts: 'left',
  limitHeader: 'x-bapi-limit',
  interval: { unit: 'SECOND', num: 1 },
  doc: `${DOC}#rate-limits`,
});

const pools: readonly RatePool[] = [
  // "HTTP IP limit": 600 requests in a 5-second window per IP; Bybit reports no usage header for it.
  {
    id: 'IP_5S',
    venueName: 'HTTP IP limit',
    scope: 'ip',
    limit: 600,
    windowMs: 5 * SECOND,
    rolling: true,
    interval: { unit: 'SECOND', num: 5 },
    doc: `${DOC}#rate-limits`,
  },
  // Trade table, spot column: create 20/s, cancel 20/s, cancel-all 20/s, create-batch 20/s (by
  // orders), amend 10/s; realtime, history and execution/list 50/s.
  uidPool('ORDER_CREATE', '/v5/order/create', 20),
  uidPool('ORDER_CANCEL', '/v5/order/cancel', 20),
  uidPool('ORDER_AMEND', '/v5/order/amend', 10),
  uidPool('ORDER_CANCEL_ALL', '/v5/order/cancel-all', 20),
  uidPool('ORDER_CREATE_BATCH', '/v5/order/create-batch', 20),
  uidPool('ORDER_REALTIME', '/v5/order/realtime', 50),
  uidPool('ORDER_HISTORY', '/v5/order/history', 50),
  uidPool('EXECUTION_LIST', '/v5/execution/list', 50),
  // Account table: wallet-balance (accountType=UNIFIED) 50/s, info 50/s, fee-rate 5/s.
  uidPool('WALLET_BALANCE', '/v5/account/wallet-balance', 50),
  uidPool('ACCOUNT_INFO', '/v5/account/info', 50),
  uidPool('FEE_RATE', '/v5/account/fee-rate', 5),
  // User table: query-api 10/s (the key check).
  uidPool('USER_QUERY_API', '/v5/user/query-api', 10),
];

/** The per-UID pool of each private call we make (method + path → pool id). */
const UID_POOL: Readonly<Record<string, string>> = {
  'POST /v5/order/create': 'ORDER_CREATE',
  'POST /v5/order/cancel': 'ORDER_CANCEL',
  'POST /v5/order/amend': 'ORDER_AMEND',
  'POST /v5/order/cancel-all': 'ORDER_CANCEL_ALL',
  'POST /v5/order/create-batch': 'ORDER_CREATE_BATCH',
  'GET /v5/order/realtime': 'ORDER_REALTIME',
  'GET /v5/order/history': 'ORDER_HISTORY',
  'GET /v5/execution/list': 'EXECUTION_LIST',
  'GET /v5/account/wallet-balance': 'WALLET_BALANCE',
  'GET /v5/account/info': 'ACCOUNT_INFO',
  'GET /v5/account/fee-rate': 'FEE_RATE',
  'GET /v5/user/query-api': 'USER_QUERY_API',
};

/**
 * Orders in a batch call's `request` array (1 when absent or unreadable): "the request limit will
 * consume" one per order, 1–10 per request. docs/venues/bybit.md#rate-limits
 */
const batchSize = ({ params, body }: RequestShape): number => {
  const list = (body as { request?: unknown } | undefined)?.request;
  if (Array.isArray(list)) return list.length > 0 ? list.length : 1;
  const raw = params.get('request');
  if (!raw) return 1;
  try {
    const parsed = JSON.parse(raw) as unknown;
    return Array.isArray(parsed) && parsed.length > 0 ? parsed.length : 1;
  } catch {
    return 1;
  }
};

/**
 * Every pool a request counts against: each REST call 1 in the IP pool; a private call also 1 in
 * its endpoint's per-UID pool (a batch: 1 per order). Public market calls (`/v5/market/…`) have
 * only the IP limit. The private WebSocket stream is not a REST call and costs nothing here (its
 * rules are `userStream`). docs/venues/bybit.md#rate-limits
 */
const requestCost = (request: RequestShape): RequestCost => {
  const { method, path } = request;
  if (method.toUpperCase() === 'WS') return {};
  const cost: RequestCost = { IP_5S: 1 };
  const pool = UID_POOL[`${method.toUpperCase()} ${path}`];
  if (pool) cost[pool] = pool === 'ORDER_CREATE_BATCH' ? batchSize(request) : 1;
  return cost;
};

/**
 * Bybit's codes the engine meets, with the documented words (error.mdx; 10006 as the rate-limit
 * page quotes the `retMsg`). Every one but 10003 comes in an HTTP 200 answer: Bybit reports a
 * refusal in `retCode`, and its own SDK (pybit) reads `retCode` only from 200 answers; an invalid
 * key is answered HTTP 401 with the same body (see 10003 below).
 * docs/venues/bybit.md#errors
 */
const codes: VenueSpec['errors']['codes'] = {
  // Over a limit. 10018 is struck out in error.mdx (retired); kept so an old answer still reads as throttled.
  '10006': { outcome: 'throttled', status: 200, message: 'Too many visits!' },
  '10018': { outcome: 'throttled', status: 200, message: 'Exceeded the IP Rate Limit.' },
  '170005': {
    outcome: 'throttled',
    status: 200,
    message: 'Too many new orders; current limit is %s orders per %s.',
  },
  '170222': { outcome: 'throttled', status: 200, message: 'Too many requests in this time frame.' },
  // The timestamp is outside [server_time − recv_window, server_time + 1000). -1 is listed without
  // explanation; its words name an expiry and a time difference (unverified outcome).
  '10002': { outcome: 'clock', status: 200, message: 'The request time exceeds the time window range.' },
  '-1': { outcome: 'clock', status: 200, message: 'request expired: o@0, now[] diff[]' },
  // Bybit does not say whether the command was carried out: look the order up before any retry.
  '10000': { outcome: 'unknown', status: 200, message: 'Server Timeout' },
  '10016': { outcome: 'unknown', status: 200, message: 'Server error.' },
  '170001': { outcome: 'unknown', status: 200, message: 'Internal error.' },
  '170007': {
    outcome: 'unknown',
    status: 200,
    message: 'Timeout waiting for response from backend server.',
  },
  '170032': { outcome: 'unknown', status: 200, message: 'Network error. Please try again later' },
  '170146': { outcome: 'unknown', status: 200, message: 'Order creation timeout' },
  '170147': { outcome: 'unknown', status: 200, message: 'Order cancellation timeout' },
  '170212': { outcome: 'unknown', status: 200, message: 'Cancel order request processing' },
  '170234': { outcome: 'unknown', status: 200, message: 'System Error' },
  // Busy: retry later.
  '429': {
    outcome: 'unavailable',
    status: 200,
    message:
      'The trading service is experiencing a high server load. Please retry if you encounter this issue.',
  },
  '170191': { outcome: 'unavailable', status: 200, message: 'Can not cancel order, please try again later' },
  // The key itself. 10003 comes with HTTP 401: error.mdx "HTTP code" gives 401 for "Invalid request
  // … need to use the correct key", the case 10003's own words name (a key of another environment),
  // and pybit users report exactly that as an HTTP 401 (bybit-exchange/pybit#130). Bybit does not
  // say which status 10004 comes with; the 401 conditions it lists (the key, the auth headers) do
  // not name the signature, so it stays 200 (unverified). docs/venues/bybit.md#errors
  '10003': {
    outcome: 'key-invalid',
    status: 401,
    message:
      'API key is invalid. Check whether the key and domain are matched, there are 4 env: mainnet, testnet, mainnet-demo, testnet-demo',
  },
  '10004': {
    outcome: 'key-invalid',
    status: 200,
    message: 'Error sign, please check your signature generation algorithm.',
  },
  '10007': { outcome: 'key-invalid', status: 200, message: 'User authentication failed.' },
  '-2015': { outcome: 'key-invalid', status: 200, message: 'Your api key has expired' },
  // A valid key that may not do this: no Spot Trade permission, a request from an IP the key is not
  // bound to, a restricted account or region, an account that is not a unified trading account.
  '10005': {
    outcome: 'permission',
    status: 200,
    message: 'Permission denied, please check your API key permissions.',
  },
  '10010': {
    outcome: 'permission',
    status: 200,
    message: "Unmatched IP, please check your API key's bound IP addresses.",
  },
  '10008': { outcome: 'permission', status: 200, message: 'Common banned, please check your account mode' },
  '10009': {
    outcome: 'permission',
    status: 200,
    message:
      'Service Restricted: Access is currently unavailable for your region. Please contact our support team for further assistance',
  },
  '10024': { outcome: 'permission', status: 200, message: 'Compliance rules triggered' },
  '10027': { outcome: 'permission', status: 200, message: 'Transactions are banned.' },
  '10028': {
    outcome: 'permission',
    status: 200,
    message: 'The API can only be accessed by unified account users.',
  },
  '10029': {
    outcome: 'permission',
    status: 200,
    message: 'The requested symbol is invalid, please check symbol whitelist',
  },
  // No such order, or no longer open (a cancel of an order that has ended): read it to learn how it ended.
  '110001': { outcome: 'not-found', status: 200, message: 'Order does not exist' },
  '170213': { outcome: 'not-found', status: 200, message: 'Order does not exist.' },
  '170143': { outcome: 'not-found', status: 200, message: 'Cannot be found on order book' },
  '170139': { outcome: 'not-found', status: 200, message: 'Order has been filled.' },
  '170142': { outcome: 'not-found', status: 200, message: 'Order has been cancelled' },
  '170190': { outcome: 'not-found', status: 200, message: 'Cancel order has been finished' },
  // The orderLinkId is taken.
  '170141': { outcome: 'duplicate', status: 200, message: 'Duplicate clientOrderId' },
  '110072': { outcome: 'duplicate', status: 200, message: 'OrderLinkedID is duplicate' },
  '170131': { outcome: 'insufficient-balance', status: 200, message: 'Balance insufficient' },
  '110007': { outcome: 'insufficient-balance', status: 200, message: 'Available balance is insufficient' },
  '170136': { outcome: 'below-minimum', status: 200, message: 'Order quantity lower than the minimum.' },
  '170140': { outcome: 'below-minimum', status: 200, message: 'Order value exceeded lower limit' },
  '110094': { outcome: 'below-minimum', status: 200, message: 'Order notional value below the lower limit' },
  '170121': { outcome: 'not-listed', status: 200, message: 'Invalid symbol.' },
  '170221': { outcome: 'not-listed', status: 200, message: 'This coin does not exist.' },
  '170151': { outcome: 'market-closed', status: 200, message: 'The trading pair is not open yet' },
  '170157': {
    outcome: 'market-closed',
    status: 200,
    message: 'The trading pair is not available for api trading',
  },
  '110066': { outcome: 'market-closed', status: 200, message: 'Trading is currently not allowed.' },
  // Refusals that change nothing.
  '10001': { outcome: 'rejected', status: 200, message: 'Request parameter error' },
  '170124': { outcome: 'rejected', status: 200, message: 'Order amount too large.' },
  '170132': { outcome: 'rejected', status: 200, message: 'Order price too high.' },
  '170133': { outcome: 'rejected', status: 200, message: 'Order price lower than the minimum.' },
  '170134': { outcome: 'rejected', status: 200, message: 'Order price decimal too long.' },
  '170137': { outcome: 'rejected', status: 200, message: 'Order volume decimal too long' },
  '170149': { outcome: 'rejected', status: 200, message: 'Create order failed' },
  '170150': { outcome: 'rejected', status: 200, message: 'Cancel order failed' },
  '170193': { outcome: 'rejected', status: 200, message: 'Buy order price cannot be higher than %s.' },
  '170194': { outcome: 'rejected', status: 200, message: 'Sell order price cannot be lower than %s.' },
  '170210': { outcome: 'rejected', status: 200, message: 'New order rejected.' },
  '170217': {
    outcome: 'rejected',
    status: 200,
    message: 'Only LIMIT-MAKER order is supported for the current pair.',
  },
  '170218': {
    outcome: 'rejected',
    status: 200,
    message: 'The LIMIT-MAKER order is rejected due to invalid price.',
  },
  '170810': {
    outcome: 'rejected',
    status: 200,
    message: 'Cannot exceed maximum of 500 conditional, TP/SL and active orders.',
  },
};

/**
 * The private stream (`/v5/private`) beyond the shared StreamRules: its topics, heartbeat rule and
 * the words of its answers. ws/connect.mdx: a client pings every 20 s (`{"op":"ping"}`, answered
 * `{"op":"pong","args":[server ms],…}`); with no ping-pong and no data pushed, Bybit cuts a private
 * connection 10 minutes after the last exchange, or after `max_active_time` (30 s – 600 s, also as
 * `1m`…`10m`) when the URL sets it. Topics (websocket/private/order, execution, wallet): `order` and
 * `execution` for every category, `order.spot` / `execution.spot` for spot only, `wallet`.
 * A failed `auth` answers `{"success":false,"ret_msg":…,"op":"auth","conn_id":…}`; an expired or
 * malformed one "Params Error" (reported by Bybit's own SDK users, bybit-exchange/pybit#152, #300).
 * The words for an unknown key, a bad signature, a second auth, an unknown op or topic and a
 * subscription before auth are not documented (unverified). docs/venues/bybit.md#user-data-stream
 */
export const bybitStream = {
  /** The private stream's hosts (ws/connect.mdx): mainnet, and the testnet of `urls.test`. */
  hosts: { live: 'wss://stream.bybit.com', test: 'wss://stream-testnet.bybit.com' },
  path: '/v5/private',
  /** The signature of `op: auth` covers this text followed by `expires` (ms). */
  authPayload: 'GET/realtime',
  topics: ['order', 'order.spot', 'execution', 'execution.spot', 'wallet'] as readonly string[],
  pingEveryMs: 20 * SECOND,
  idleMs: 10 * MINUTE,
  minActiveMs: 30 * SECOND,
  maxActiveMs: 10 * MINUTE,
  words: {
    authParams: 'Params Error',
    authDenied: 'Request not authorized',
    repeatAuth: 'Repeat auth',
    notAuthorized: 'Request not authorized',
    invalidOp: 'error:invalid op',
    badTopic: 'error:handler not found,topic:%s',
  },
  unverified: [
    'words.authDenied',
    'words.repeatAuth',
    'words.notAuthorized',
    'words.invalidOp',
    'words.badTopic',
  ] as readonly string[],
  doc: `${DOC}#user-data-stream`,
};

/**
 * rate-limit.mdx "IP limit": an IP over 600 requests in 5 s is answered HTTP 403 "access too
 * frequent" and banned for at least 10 minutes (overLimit.firstBanMs). docs/venues/bybit.md#bans
 */
export const bybitIpBan = { message: 'access too frequent', doc: `${DOC}#bans` };

export const bybit: VenueSpec & { stream: typeof bybitStream; ipBan: typeof bybitIpBan } = {
  id: 'bybit',
  name: 'Bybit',
  // guide.mdx "Authentication": mainnet and testnet base endpoints. docs/venues/bybit.md#endpoints
  urls: { rest: 'https://api.bybit.com', test: 'https://api-testnet.bybit.com', doc: `${DOC}#endpoints` },
  // Every call with category=spot. docs/venues/bybit.md#endpoints
  endpoints: {
    serverTime: { method: 'GET', path: '/v5/market/time' },
    placeOrder: { method: 'POST', path: '/v5/order/create' },
    cancelOrder: { method: 'POST', path: '/v5/order/cancel' },
    queryOrder: { method: 'GET', path: '/v5/order/realtime' },
    openOrders: { method: 'GET', path: '/v5/order/realtime' },
    balances: { method: 'GET', path: '/v5/account/wallet-balance' },
    myTrades: { method: 'GET', path: '/v5/execution/list' },
  },
  errors: {
    codeField: 'retCode',
    messageField: 'retMsg',
    okCode: '0',
    codes,
    // error.mdx groups 170xxx as "Spot Trade": refusals of the order we sent (its timeouts and
    // internal errors are listed above as unknown); any other unlisted code is left to the default.
    otherwise: (code) => (/^170\d{3}$/.test(code) ? 'rejected' : 'unavailable'),
    doc: `${DOC}#errors`,
  },
  // create-order.mdx, orderLinkId: at most 36 characters, letters, digits, `-` and `_`, "always
  // unique" (not only among open orders). docs/venues/bybit.md#client-order-ids
  clientOrderId: {
    field: 'orderLinkId',
    maxLength: 36,
    pattern: /^[A-Za-z0-9_-]{1,36}$/,
    uniqueAmong: 'all',
    doc: `${DOC}#client-order-ids`,
  },
  // Bybit documents no format for a key or a secret (its examples show 18 and 36 placeholder
  // characters): letters and digits, 10–64, unverified. No passphrase. What a key may do comes from
  // GET /v5/user/query-api (readOnly, permissions.Spot, ips, expiredAt). docs/venues/bybit.md#keys
  keys: {
    passphrase: false,
    keyPattern: /^[A-Za-z0-9]{10,64}$/,
    secretPattern: /^[A-Za-z0-9]{10,64}$/,
    check: { method: 'GET', path: '/v5/user/query-api' },
    doc: `${DOC}#keys`,
  },
  // instrument.mdx, category=spot: `status`, and spot lists `Trading` only. docs/venues/bybit.md#filters
  markets: {
    list: { method: 'GET', path: '/v5/market/instruments-info' },
    statusField: 'status',
    tradingStatus: 'Trading',
    doc: `${DOC}#filters`,
  },
  unverified: [
    'keys.keyPattern',
    'keys.secretPattern',
    'clock.maxRecvWindowMs',
    'overLimit.maxBanMs',
    'userStream.connectionLifeMs',
    'userStream.subscriptionsPerConnection',
    'userStream.subscriptionsPerConnectionLifetime',
    'defaultMaxOpenOrdersPerSymbol',
    'errors.codes.-1.outcome',
    'errors.codes.10004.status',
  ],
  pools,
  requestCost,
  // rate-limit.mdx: over a per-UID limit, retCode 10006 in an HTTP 200 answer, with
  // X-Bapi-Limit-Reset-Timestamp (ms) saying when the window refills; over the IP limit, HTTP 403
  // "access too frequent" and a ban of "at least 10 minutes", lifted automatically. Bybit sends no
  // Retry-After (none is documented), hence ''. No longer bans for repeat offenders are documented:
  // maxBanMs is the one figure given (unverified). docs/venues/bybit.md#bans
  overLimit: {
    throttledStatus: 200,
    // 10006 is one endpoint's per-UID limit: that pool waits until X-Bapi-Limit-Reset-Timestamp.
    throttledScope: 'pool',
    bannedStatus: 403,
    retryAfterHeader: '',
    resetAtHeader: 'x-bapi-limit-reset-timestamp',
    firstBanMs: 10 * MINUTE,
    maxBanMs: 10 * MINUTE,
    doc: `${DOC}#bans`,
  },
  // guide.mdx: X-BAPI-RECV-WINDOW defaults to 5,000 ms; server_time − recv_window <= timestamp <
  // server_time + 1000. No maximum is documented: the default is the one figure given (unverified).
  // docs/venues/bybit.md#clock
  clock: { defaultRecvWindowMs: 5000, maxRecvWindowMs: 5000, aheadToleranceMs: 1000, doc: `${DOC}#clock` },
  // rate-limit.mdx "Websocket IP limit" and ws/connect: at most 500 connections per 5 minutes.
  // One connection authenticates one key (`op: auth`), so one account; no connection life and no
  // limit on authentications are documented (unverified). docs/venues/bybit.md#user-data-stream
  userStream: {
    connectionsPerWindow: 500,
    connectionWindowMs: 5 * MINUTE,
    connectionLifeMs: 24 * 60 * MINUTE,
    subscriptionsPerConnection: 1,
    subscriptionsPerConnectionLifetime: 1,
    doc: `${DOC}#user-data-stream`,
  },
  // create-order.mdx "Open orders up limit", Spot: 500 orders in total (30 TP/SL, 30 conditional
  // per symbol); whether the 500 counts per symbol or per account is not clear (unverified).
  // docs/venues/bybit.md#filters
  defaultMaxOpenOrdersPerSymbol: 500,
  stream: bybitStream,
  ipBan: bybitIpBan,
};
