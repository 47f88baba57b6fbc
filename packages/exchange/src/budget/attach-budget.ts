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

/** The request as the venue's table reads it: path, and parameters from the query and a form body. */
const shapeOf = (signed: Signed): RequestShape => {
  const url = new URL(signed.url);
  const params = new URLSearchParams(url.search);
  if (typeof signed.body === 'string' && signed.body !== '' && !signed.body.startsWith('{')) {
    for (const [k, v] of new URLSearchParams(signed.body)) params.append(k, v);
  }
  return { method: signed.method, path: url.pathname, params };
};

const closedKeyOf = (target: BudgetTarget, scope: 'ip' | 'account', id: string) =>
  `${target.venue}:closed:${scope === 'ip' ? 'ip' : 'acct'}:${id}`;

/**
 * The closures a request honours: its IP's always; its account's only when it costs in an account
 * pool (a -1015 stops new orders, while cancels and reads of the account go on).
 */
const closedKeysOf = (budget: VenueBudget, target: BudgetTarget, charges: PoolCharge[]) => [
  closedKeyOf(target, 'ip', budget.ip),
  ...(target.account && charges.some((c) => c.key.includes(':acct:'))
    ? [closedKeyOf(target, 'account', target.account)]
    : []),
];

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
    charges.push({
      pool: pool.id,
      key: `${target.venue}:${pool.id}:${owner}`,
      units,
      limit: budget.limits[pool.id] ?? pool.limit,
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
      const scope = key.includes(':closed:ip:') ? 'ip' : 'account';
      throw waitError(venue, { resumeAt: until, scope, reason: 'closed' }, 'the venue asked us to wait');
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
    const scope = answer.key.includes(':ip:') ? 'ip' : 'account';
    const wait: VenueWait = { resumeAt: answer.resumeAt, scope, reason: answer.reason };
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

const BINANCE_CODE = /"code"\s*:\s*(-?\d+)/;

/** Records a closure here at once (this process stops now) and in the store (every process). */
const close = (
  budget: VenueBudget,
  target: BudgetTarget,
  closure: { scope: 'ip' | 'account'; until: number; status: number },
) => {
  const id = closure.scope === 'ip' ? budget.ip : target.account!;
  const key = closedKeyOf(target, closure.scope, id);
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
      }),
    )
    .catch((error: unknown) => budget.onEvent({ kind: 'store-failed', venue: target.venue, error }));
};

/**
 * Reads one answer: the usage headers raise the budget's count to the venue's (the venue's count is
 * the truth for the IP); 429/418 close the IP until Retry-After has passed, -1015 (too many new
 * orders, a 429 without Retry-After) closes the account's ORDERS pool until its window ends. The
 * closure is thrown with the error, so the caller waits instead of resending.
 * docs/venues/binance.md#bans, #order-limits
 */
const readAnswer = (
  budget: VenueBudget,
  target: BudgetTarget,
  answer: { status: number; headers: Record<string, unknown>; body: string },
) => {
  const now = Date.now();
  for (const pool of target.spec.pools) {
    if (!pool.usageHeader || (pool.scope === 'account' && !target.account)) continue;
    const raw = headerOf(answer.headers, pool.usageHeader);
    const used = raw === undefined ? Number.NaN : Number(raw);
    if (!Number.isFinite(used)) continue;
    const owner = pool.scope === 'ip' ? `ip:${budget.ip}` : `acct:${target.account}`;
    const limit = budget.limits[pool.id] ?? pool.limit;
    budget.store
      .observe({ key: `${target.venue}:${pool.id}:${owner}`, used, limit, windowMs: pool.windowMs, now })
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
  const { overLimit } = target.spec;
  if (answer.status !== overLimit.throttledStatus && answer.status !== overLimit.bannedStatus) return;
  const exchangeCode = BINANCE_CODE.exec(answer.body ?? '')?.[1];
  budget.onEvent({
    kind: 'over-limit',
    venue: target.venue,
    ip: budget.ip,
    status: answer.status,
    ...(exchangeCode ? { exchangeCode } : {}),
  });
  const retryAfterS = Number(headerOf(answer.headers, overLimit.retryAfterHeader));
  const ordersPool = /DAY/i.test(answer.body ?? '')
    ? target.spec.pools.find((p) => p.id === 'ORDERS_1D')
    : target.spec.pools.find((p) => p.id === 'ORDERS_10S');
  // -1015 is the account's ORDERS pool, never the IP's: Binance sends it without Retry-After
  // (rest-api.md#unfilled-order-count), so the window's end is the wait unless one is given.
  if (exchangeCode === '-1015' && target.account && ordersPool) {
    const until = retryAfterS > 0 ? now + retryAfterS * 1000 : windowEnd(ordersPool.windowMs, now);
    close(budget, target, { scope: 'account', until, status: answer.status });
    throw waitError(
      target.venue,
      { resumeAt: until, scope: 'account', reason: 'closed' },
      'too many new orders (-1015)',
      exchangeCode,
    );
  }
  const weight = target.spec.pools.find((p) => p.usageHeader && p.scope === 'ip');
  const until = retryAfterS > 0 ? now + retryAfterS * 1000 : windowEnd(weight?.windowMs ?? 60_000, now);
  close(budget, target, { scope: 'ip', until, status: answer.status });
  throw waitError(
    target.venue,
    { resumeAt: until, scope: 'ip', reason: 'closed' },
    `${answer.status === overLimit.bannedStatus ? 'IP banned' : 'over the request limit'} (HTTP ${answer.status}, Retry-After ${Number.isFinite(retryAfterS) ? retryAfterS : '-'} s)`,
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
    readAnswer(budget, target, {
      status: Number(code),
      headers: (headers ?? {}) as Record<string, unknown>,
      body: typeof body === 'string' ? body : '',
    });
    return handleErrors(code, reason, url, method, headers, body, ...rest);
  };
};
