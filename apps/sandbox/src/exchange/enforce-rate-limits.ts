import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountBook } from './accounts';
import type { RateLimits } from './rate-limits';
import { headerOf, pathOf, queryOf } from './rate-windows';

/** Binance's own endpoints; the control API and /health are the sandbox's and cost nothing. */
const isBinancePath = (path: string) => path.startsWith('/api/') || path.startsWith('/sapi/');

/** Query string and form body together: only the weight is read from them, never a signature. */
const paramsOf = (request: FastifyRequest): URLSearchParams => {
  const params = queryOf(request);
  if (typeof request.body === 'string')
    for (const [k, v] of new URLSearchParams(request.body)) params.append(k, v);
  return params;
};

const isNewOrder = (request: FastifyRequest) =>
  request.method === 'POST' && pathOf(request) === '/api/v3/order';

type Charged = { weight: number; accountId?: number };

/**
 * Enforces Binance's limits on its endpoints (rate-limits.ts): before the handler, the request is
 * charged to its IP's pools (the client address as Fastify sees it) or refused with 429/418 and
 * `Retry-After`; a new order is also checked against its account's ORDERS pools (the key names the
 * account). Every answer carries the usage headers, a new order's also the order counts, and each
 * request is logged. Runs in preHandler, after the body is parsed: `POST /api/v3/order/test`
 * weighs more with `computeCommissionRates`, which may come in a form body.
 */
export const enforceRateLimits = (app: FastifyInstance, limits: RateLimits, accounts: AccountBook): void => {
  const charged = new WeakMap<FastifyRequest, Charged>();

  app.addHook('preHandler', async (request, reply) => {
    const path = pathOf(request);
    if (!isBinancePath(path)) return;
    const shape = { method: request.method, path, params: paramsOf(request) };
    const verdict = limits.admit(request.ip, shape);
    let refusal = 'refusal' in verdict ? verdict.refusal : undefined;
    const entry: Charged = { weight: 'weight' in verdict ? verdict.weight : 0 };
    charged.set(request, entry);
    if (!refusal && isNewOrder(request)) {
      const accountId = accounts.key(headerOf(request, 'x-mbx-apikey') ?? '')?.accountId;
      if (accountId !== undefined) {
        entry.accountId = accountId;
        refusal = limits.checkOrders(request.ip, accountId);
      }
    }
    if (!refusal) return;
    return reply.status(refusal.status).header('retry-after', String(refusal.retryAfterS)).send(refusal.body);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const entry = charged.get(request);
    if (!entry) return payload;
    // rest-api.md#unfilled-order-count: every successful order counts; a refused one does not.
    const placed = entry.accountId !== undefined && reply.statusCode < 400;
    if (placed) limits.countOrder(entry.accountId!);
    void reply.headers(limits.usageHeaders(request.ip, placed ? entry.accountId : undefined));
    return payload;
  });

  app.addHook('onResponse', async (request, reply) => {
    const path = pathOf(request);
    if (!isBinancePath(path)) return;
    limits.record({
      time: Date.now(),
      ip: request.ip,
      method: request.method,
      path,
      status: reply.statusCode,
      weight: charged.get(request)?.weight ?? 0,
    });
  });
};
