import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestShape, VenueSpec } from '@gridbot/venues';
import type { Exchange } from 'ccxt';
import { ExchangeError, type VenueWait } from '../errors';
import { currentRequestPriority, priorityOfRequest } from './request-priority';
import {
  type PoolCharge,
  PRIORITY_SHARE,
  type RequestPriority,
  type VenueBudget,
  windowEnd,
} from './venue-budget';

/** Which budgets one ccxt instance spends: its venue's, its IP's and (signed) its account's. */
export type BudgetTarget = {
  spec: VenueSpec;
  /** `<exchange>:<mode>` (live, testnet and the sandbox are separate venues). */
  venue: string;
  /** A hash of the API key (never the key): the owner of the account pools. None for public clients. */
  account?: string;
};

type Signed = { url: string; method: string; body?: unknown };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON body as sent (Bybit's and OKX's POSTs), or undefined for any other. */
const jsonOf = (body: string): unknown => {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
};

/**
 * The request as the venue's table reads it: path, parameters from the query and a form body, and
 * a JSON body (Bybit's and OKX's POSTs) both parsed and, for its top-level scalar fields, as
 * parameters (the side of an order is one: request-priority.ts).
 */
const shapeOf = (signed: Signed): RequestShape => {
  const url = new URL(signed.url);
  const params = new URLSearchParams(url.search);
  const raw = typeof signed.body === 'string' ? signed.body.trim() : '';
  if (raw === '') return { method: signed.method, path: url.pathname, params };
  if (!raw.startsWith('{') && !raw.startsWith('[')) {
    for (const [k, v] of new URLSearchParams(raw)) params.append(k, v);
    return { method: signed.method, path: url.pathname, params };
  }
  const body = jsonOf(raw);
  if (isObject(body)) {
    for (const [k, v] of Object.entries(body)) {
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
        params.append(k, String(v));
    }
  }
  return { method: signed.method, path: url.pathname, params, ...(body === undefined ? {} : { body }) };
};

const closedKeyOf = (target: BudgetTarget, scope: 'ip' | 'account', id: string) =>
  `${target.venue}:closed:${scope === 'ip' ? 'ip' : 'acct'}:${id}`;

/** The closure of one pool of one owner (`<venue>:closed:pool:<pool>:ip:<ip>` or `…:acct:<account>`). */
const poolClosedKeyOf = (target: BudgetTarget, charge: PoolCharge) =>
  `${target.venue}:closed:pool:${charge.key.slice(target.venue.length + 1)}`;

/**
 * The closures a request honours: its IP's always; its account's only when it costs in an account
 * pool (a -1015 stops new orders, while cancels and reads of the account go on); and, on a venue
 * whose refusals close one pool (Bybit's 10006, OKX's 50011), each pool it costs in.
 */
const closedKeysOf = (budget: VenueBudget, target: BudgetTarget, charges: PoolCharge[]) => [
  closedKeyOf(target, 'ip', budget.ip),
  ...(target.account && charges.some((c) => c.key.includes(':acct:'))
    ? [closedKeyOf(target, 'account', target.account)]
    : []),
  ...(target.spec.overLimit.throttledScope === 'pool' ? charges.map((c) => poolClosedKeyOf(target, c)) : []),
];

/** Whose budget a key (a pool's or a closure's) belongs to. */
const scopeOfKey = (key: string): 'ip' | 'account' => (key.includes(':ip:') ? 'ip' : 'account');

const waitError = (venue: string, wait: VenueWait, detail: string, exchangeCode?: string) =>
  new ExchangeError(
    'EXCHANGE_UNAVAILABLE',
    `${venue}: ${detail}; nothing is sent before ${new Date(wait.resumeAt).toISOString()}`,
    { retryable: true, wait, ...(exchangeCode ? { exchangeCode } : {}) },
  );

/** What the request costs, pool by pool, in this budget's keys. */
const chargesOf = (budget: VenueBudget, target: BudgetTarget, request: RequestShape): PoolCharge[] => {
  const cost = target.spec.requestCost(request);
  const charges: PoolCharge[] = [];
  for (const pool of target.spec.pools) {
    const units = cost[pool.id] ?? 0;
    if (units <= 0) continue;
    if (pool.scope === 'account' && !target.account) continue;
    const owner = pool.scope === 'ip' ? `ip:${budget.ip}` : `acct:${target.account}`;
    const key = `${target.venue}:${pool.id}:${owner}`;
    charges.push({
      pool: pool.id,
      key,
      units,
      // Ours when set, else what the venue last said it applies (Bybit's X-Bapi-Limit), else the table's.
      limit: budget.limits[pool.id] ?? budget.venueLimits?.get(key) ?? pool.limit,
      windowMs: pool.windowMs,
    });
  }
  return charges;
};

/** Throws the wait when this process already knows the IP (or the account) is closed. */
const assertOpen = (budget: VenueBudget, keys: string[], venue: string, now = Date.now()) => {
  for (const key of keys) {
    const until = budget.closed.get(key) ?? 0;
    if (until > now) {
      throw waitError(
        venue,
        { resumeAt: until, scope: scopeOfKey(key), reason: 'closed' },
        'the venue asked us to wait',
      );
    }
  }
};

/**
 * Reserves the request in every pool it costs, before it is signed (a wait after signing would
 * outlive its recvWindow). A full window is waited for when it ends within `maxWaitMs`; a longer
 * wait, or a closure, is thrown with the error so the job is deferred (docs/grid.md#request-budget).
 */
const admit = async (budget: VenueBudget, target: BudgetTarget, request: RequestShape) => {
  const priority: RequestPriority = priorityOfRequest(request, currentRequestPriority());
  const charges = chargesOf(budget, target, request);
  const closedKeys = closedKeysOf(budget, target, charges);
  let waited = 0;
  for (;;) {
    const now = Date.now();
    assertOpen(budget, closedKeys, target.venue, now);
    const answer = await budget.store.reserve({ charges, closedKeys, share: PRIORITY_SHARE[priority], now });
    if (answer.ok) {
      charges.forEach((c, i) => {
        if (!c.key.includes(':ip:')) return;
        const used = answer.used[i] ?? 0;
        budget.onEvent({
          kind: 'usage',
          venue: target.venue,
          ip: budget.ip,
          pool: c.pool,
          used,
          limit: c.limit,
        });
        if (answer.crossed[i]) {
          budget.onEvent({
            kind: 'near-limit',
            venue: target.venue,
            ip: budget.ip,
            pool: c.pool,
            used,
            limit: c.limit,
          });
        }
      });
      if (waited > 0) budget.onEvent({ kind: 'waited', venue: target.venue, priority, ms: waited });
      return;
    }
    const wait: VenueWait = {
      resumeAt: answer.resumeAt,
      scope: scopeOfKey(answer.key),
      reason: answer.reason,
    };
    if (answer.reason === 'closed') {
      budget.closed.set(answer.key, answer.resumeAt);
    } else if (answer.resumeAt - now + waited <= budget.maxWaitMs) {
      // Spread the waiters over the new window's first 50 ms: they reserve one by one anyway.
      const ms = answer.resumeAt - now + Math.floor(Math.random() * 50);
      await sleep(ms);
      waited += ms;
      continue;
    }
    budget.onEvent({
      kind: 'refused',
      venue: target.venue,
      priority,
      reason: answer.reason,
      resumeAt: answer.resumeAt,
    });
    throw waitError(
      target.venue,
      wait,
      answer.reason === 'closed' ? 'the venue asked us to wait' : `the ${priority}-priority budget is spent`,
    );
  }
};

const headerOf = (headers: Record<string, unknown>, name: string): string | undefined => {
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() === name) return value === undefined || value === null ? undefined : String(value);
  }
  return undefined;
};

/**
 * The venue's code in an answer, by its table: the top-level `codeField` (Binance `code`, Bybit
 * `retCode`), or a refused order's own code under it (OKX's `sCode` in `data[]`).
 */
const codeOf = (spec: VenueSpec, parsed: unknown): string | undefined => {
  if (!isObject(parsed)) return undefined;
  const { codeField, orderCodeField, okCode } = spec.errors;
  if (orderCodeField && Array.isArray(parsed.data)) {
    for (const entry of parsed.data) {
      const code = isObject(entry) ? entry[orderCodeField] : undefined;
      if (code !== undefined && code !== null && String(code) !== (okCode ?? '0')) return String(code);
    }
  }
  const top = parsed[codeField];
  return top === undefined || top === null ? undefined : String(top);
};

type Answer = {
  status: number;
  headers: Record<string, unknown>;
  body: string;
  /** The body as ccxt parsed it (undefined when it is not JSON). */
  parsed: unknown;
  /** The request it answers, as the table reads it. */
  request?: RequestShape;
};

/** Records a closure here at once (this process stops now) and in the store (every process). */
const close = (
  budget: VenueBudget,
  target: BudgetTarget,
  closure: { key: string; scope: 'ip' | 'account'; until: number; status: number; pool?: string },
) => {
  const { key } = closure;
  budget.closed.set(key, Math.max(budget.closed.get(key) ?? 0, closure.until));
  budget.store
    .close({ key, until: closure.until, now: Date.now() })
    .then(({ started, until }) =>
      budget.onEvent({
        kind: 'closed',
        venue: target.venue,
        ip: budget.ip,
        scope: closure.scope,
        status: closure.status,
        until,
        started,
        ...(closure.pool ? { pool: closure.pool } : {}),
      }),
    )
    .catch((error: unknown) => budget.onEvent({ kind: 'store-failed', venue: target.venue, error }));
};

/**
 * The usage headers raise the budget's count to the venue's (the venue's count is the truth). A
 * header of what is `left` (Bybit's X-Bapi-Limit-Status) is the answering endpoint's, so it is read
 * for the pools the request was charged in only, beside the limit the venue applies (X-Bapi-Limit),
 * which this process uses from then on. docs/venues/bybit.md#rate-limits
 */
const readUsage = (budget: VenueBudget, target: BudgetTarget, answer: Answer, charges: PoolCharge[]) => {
  const now = Date.now();
  for (const pool of target.spec.pools) {
    if (!pool.usageHeader || (pool.scope === 'account' && !target.account)) continue;
    const owner = pool.scope === 'ip' ? `ip:${budget.ip}` : `acct:${target.account}`;
    const key = `${target.venue}:${pool.id}:${owner}`;
    const counts = pool.usageHeaderCounts ?? 'used';
    if (counts === 'left' && !charges.some((c) => c.key === key)) continue;
    const raw = headerOf(answer.headers, pool.usageHeader);
    const reported = raw === undefined ? Number.NaN : Number(raw);
    if (!Number.isFinite(reported)) continue;
    const venueLimit = pool.limitHeader ? Number(headerOf(answer.headers, pool.limitHeader)) : Number.NaN;
    if (Number.isInteger(venueLimit) && venueLimit > 0) budget.venueLimits?.set(key, venueLimit);
    const limit = budget.limits[pool.id] ?? budget.venueLimits?.get(key) ?? pool.limit;
    const used =
      counts === 'left'
        ? Math.max(0, (Number.isInteger(venueLimit) && venueLimit > 0 ? venueLimit : limit) - reported)
        : reported;
    budget.store
      .observe({ key, used, limit, windowMs: pool.windowMs, now })
      .then(({ crossed }) => {
        if (pool.scope !== 'ip') return;
        budget.onEvent({ kind: 'usage', venue: target.venue, ip: budget.ip, pool: pool.id, used, limit });
        if (crossed)
          budget.onEvent({
            kind: 'near-limit',
            venue: target.venue,
            ip: budget.ip,
            pool: pool.id,
            used,
            limit,
          });
      })
      .catch((error: unknown) => budget.onEvent({ kind: 'store-failed', venue: target.venue, error }));
  }
};

/**
 * A refusal of one endpoint's limit (Bybit's 10006, OKX's 50011: `throttledScope: 'pool'`) closes
 * the pools the request was charged in — its account's when it has any, else its IP's — until the
 * venue's reset time (Bybit's X-Bapi-Limit-Reset-Timestamp) or, where the venue sends none (OKX), a
 * whole window from now: the refused request's own window has no room left whichever way the venue
 * slides it. Other pools of the account and the IP go on. docs/venues/bybit.md#rate-limits,
 * docs/venues/okx.md#bans
 */
const closePools = (
  budget: VenueBudget,
  target: BudgetTarget,
  answer: Answer,
  charges: PoolCharge[],
  exchangeCode: string | undefined,
): never => {
  const now = Date.now();
  const own = charges.filter((c) => c.key.includes(':acct:'));
  const refused = own.length > 0 ? own : charges;
  const { resetAtHeader } = target.spec.overLimit;
  const resetAt = resetAtHeader ? Number(headerOf(answer.headers, resetAtHeader)) : Number.NaN;
  const ends = refused.map((charge) => {
    const end = Number.isFinite(resetAt) && resetAt > now ? resetAt : now + charge.windowMs;
    close(budget, target, {
      key: poolClosedKeyOf(target, charge),
      scope: scopeOfKey(charge.key),
      until: end,
      status: answer.status,
      pool: charge.pool,
    });
    return end;
  });
  // A call the table does not cost has no pool to close: it waits the venue's shortest window.
  const until =
    ends.length > 0 ? Math.max(...ends) : now + Math.min(...target.spec.pools.map((p) => p.windowMs));
  const scope = own.length > 0 ? 'account' : 'ip';
  throw waitError(
    target.venue,
    { resumeAt: until, scope, reason: 'closed' },
    `over the ${refused.map((c) => c.pool).join(', ') || 'endpoint'} limit (${exchangeCode ?? `HTTP ${answer.status}`})`,
    exchangeCode,
  );
};

/**
 * Reads one answer: its usage headers (readUsage); 429/418 on Binance close the IP until
 * Retry-After has passed, -1015 (too many new orders, a 429 without Retry-After) closes the
 * account's ORDERS pool until its window ends; Bybit's 403 closes the IP for its ban (10 minutes:
 * Bybit sends no Retry-After), and a refusal of one endpoint's limit closes that pool (closePools).
 * The closure is thrown with the error, so the caller waits instead of resending.
 * docs/venues/binance.md#bans, #order-limits; docs/venues/bybit.md#bans; docs/venues/okx.md#bans
 */
const readAnswer = (budget: VenueBudget, target: BudgetTarget, answer: Answer) => {
  const now = Date.now();
  const charges = answer.request ? chargesOf(budget, target, answer.request) : [];
  readUsage(budget, target, answer, charges);
  const { overLimit } = target.spec;
  const banned = overLimit.bannedStatus !== null && answer.status === overLimit.bannedStatus;
  const overStatus = answer.status === overLimit.throttledStatus && answer.status !== 200;
  const byPool = overLimit.throttledScope === 'pool';
  // A venue that refuses in the body (Bybit's 10006 in a 200) is read by its table's codes.
  const exchangeCode =
    banned || overStatus || byPool
      ? codeOf(target.spec, answer.parsed ?? jsonOf(answer.body ?? ''))
      : undefined;
  const throttledCode =
    exchangeCode !== undefined && target.spec.errors.codes[exchangeCode]?.outcome === 'throttled';
  const throttled = byPool ? overStatus || throttledCode : answer.status === overLimit.throttledStatus;
  if (!banned && !throttled) return;
  budget.onEvent({
    kind: 'over-limit',
    venue: target.venue,
    ip: budget.ip,
    status: answer.status,
    ...(exchangeCode ? { exchangeCode } : {}),
  });
  if (throttled && !banned && byPool) closePools(budget, target, answer, charges, exchangeCode);
  const retryAfterS = overLimit.retryAfterHeader
    ? Number(headerOf(answer.headers, overLimit.retryAfterHeader))
    : Number.NaN;
  const ordersPool = /DAY/i.test(answer.body ?? '')
    ? target.spec.pools.find((p) => p.id === 'ORDERS_1D')
    : target.spec.pools.find((p) => p.id === 'ORDERS_10S');
  // -1015 is the account's ORDERS pool, never the IP's: Binance sends it without Retry-After
  // (rest-api.md#unfilled-order-count), so the window's end is the wait unless one is given.
  if (exchangeCode === '-1015' && target.account && ordersPool) {
    const until = retryAfterS > 0 ? now + retryAfterS * 1000 : windowEnd(ordersPool.windowMs, now);
    close(budget, target, {
      key: closedKeyOf(target, 'account', target.account),
      scope: 'account',
      until,
      status: answer.status,
    });
    throw waitError(
      target.venue,
      { resumeAt: until, scope: 'account', reason: 'closed' },
      'too many new orders (-1015)',
      exchangeCode,
    );
  }
  const weight = target.spec.pools.find((p) => p.usageHeader && p.scope === 'ip');
  // A ban without a Retry-After header (Bybit documents none) lasts the venue's first ban.
  const until =
    retryAfterS > 0
      ? now + retryAfterS * 1000
      : banned && !overLimit.retryAfterHeader
        ? now + overLimit.firstBanMs
        : windowEnd(weight?.windowMs ?? 60_000, now);
  close(budget, target, {
    key: closedKeyOf(target, 'ip', budget.ip),
    scope: 'ip',
    until,
    status: answer.status,
  });
  throw waitError(
    target.venue,
    { resumeAt: until, scope: 'ip', reason: 'closed' },
    `${banned ? 'IP banned' : 'over the request limit'} (HTTP ${answer.status}, Retry-After ${Number.isFinite(retryAfterS) ? retryAfterS : '-'} s)`,
    exchangeCode,
  );
};

type Fetch2 = (
  path: unknown,
  api?: unknown,
  method?: string,
  params?: Record<string, unknown>,
  headers?: unknown,
  body?: unknown,
  config?: unknown,
) => Promise<unknown>;

/**
 * Puts one ccxt instance on the shared budget, at ccxt's per-request level: `fetch2` (before
 * signing) reserves what the request costs, `fetch` (just before sending) refuses while a closure
 * this process knows of lasts, and `handleErrors` (called with every answer's own headers; the
 * instance's `last_response_headers` is shared by concurrent requests) reads usage and 429/418.
 * ccxt's own limiter (per instance, so per key) is switched off: the budget replaces it.
 */
const admitters = new WeakMap<Exchange, (request: RequestShape) => Promise<void>>();

/**
 * Spends a request made outside ccxt's REST path (a WebSocket API request: Binance weighs it on the
 * same per-IP REQUEST_WEIGHT, web-socket-api.md#ip-limits) on the budget of the instance; false when
 * the instance has no budget attached (the caller paces it another way).
 */
export const admitOnBudget = async (exchange: Exchange, request: RequestShape): Promise<boolean> => {
  const admitter = admitters.get(exchange);
  if (!admitter) return false;
  await admitter(request);
  return true;
};

export const attachBudget = (exchange: Exchange, budget: VenueBudget, target: BudgetTarget): void => {
  admitters.set(exchange, (request) => admit(budget, target, request));
  const raw = exchange as unknown as {
    fetch2: Fetch2;
    fetch: (url: string, method?: string, headers?: unknown, body?: unknown) => Promise<unknown>;
    sign: (...args: unknown[]) => Signed;
    handleErrors: (...args: unknown[]) => unknown;
    throttle: (cost?: number) => Promise<unknown>;
  };
  const fetch2 = raw.fetch2.bind(exchange);
  const fetch = raw.fetch.bind(exchange);
  const handleErrors = raw.handleErrors.bind(exchange);
  raw.throttle = async () => undefined;
  raw.fetch2 = async (path, api = 'public', method = 'GET', params = {}, headers, body, config = {}) => {
    // A dry signing gives the URL and body the request will have: what the venue's table weighs.
    const signed = raw.sign(path, api, method, params, headers, body);
    await admit(budget, target, shapeOf(signed));
    return fetch2(path, api, method, params, headers, body, config);
  };
  raw.fetch = async (url, method, headers, body) => {
    const charges = chargesOf(budget, target, shapeOf({ url, method: method ?? 'GET', body }));
    assertOpen(budget, closedKeysOf(budget, target, charges), target.venue);
    return fetch(url, method, headers, body);
  };
  raw.handleErrors = (code, reason, url, method, headers, body, ...rest) => {
    // ccxt's order: …, responseBody, parsedBody, requestHeaders, requestBody.
    const [parsed, , requestBody] = rest;
    readAnswer(budget, target, {
      status: Number(code),
      headers: (headers ?? {}) as Record<string, unknown>,
      body: typeof body === 'string' ? body : '',
      parsed,
      ...(typeof url === 'string'
        ? {
            request: shapeOf({ url, method: typeof method === 'string' ? method : 'GET', body: requestBody }),
          }
        : {}),
    });
    return handleErrors(code, reason, url, method, headers, body, ...rest);
  };
};
