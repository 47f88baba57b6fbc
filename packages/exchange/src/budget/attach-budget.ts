import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestShape } from '@gridbot/venues';
import type { Exchange } from 'ccxt';
import type { VenueWait } from '../errors';
import { type BudgetTarget, chargesOf, closedKeysOf, scopeOfKey, waitError } from './budget-keys';
import { readAnswer } from './read-answer';
import { currentRequestPriority, priorityOfRequest } from './request-priority';
import { type Signed, shapeOf } from './request-shape';
import { PRIORITY_SHARE, type RequestPriority, type VenueBudget } from './venue-budget';

export type { BudgetTarget } from './budget-keys';

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
