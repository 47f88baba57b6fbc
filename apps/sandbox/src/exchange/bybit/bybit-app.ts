import { loggerOptions } from '@gridbot/runtime';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { SandboxExchange } from '../sandbox-exchange';
import { bybitAccountRoutes } from './bybit-account-routes';
import { bybitControlRoutes } from './bybit-control-routes';
import { asBybitError, type BybitError, bybitError, envelope } from './bybit-error';
import { type BybitFaults, bybitFaults, enforceBybitFaults } from './bybit-faults';
import { bybitMarketRoutes } from './bybit-market-routes';
import { bybitOrderQueryRoutes } from './bybit-order-query-routes';
import { bybitOrderRoutes } from './bybit-order-routes';
import { attachBybitPrivateStream, type BybitStreamControl } from './bybit-private-stream';
import { BybitRateLimits, enforceBybitRateLimits } from './bybit-rate-limits';

/** What a test or the control API may do to the Bybit dialect beyond the shared exchange. */
export type BybitDialect = {
  /** The private stream `/v5/private`. */
  stream: BybitStreamControl;
  /** Its rate limits: lower them, ban, reset (bybit-rate-limits.ts). */
  limits: BybitRateLimits;
  /** Its outages and spoiled order answers (bybit-faults.ts). */
  faults: BybitFaults;
  /** The shared exchange (the control API finds a key's account in it). */
  exchange: SandboxExchange;
};

/**
 * The Fastify app speaking Bybit's v5 spot dialect (not listening yet), on the same
 * SandboxExchange as the Binance dialect: same markets, prices, accounts and orders. Every route
 * returns its `result`; this wraps it in Bybit's envelope, and a refusal in `retCode`/`retMsg`
 * (HTTP 200, docs/venues/bybit.md#errors).
 */
export const buildBybitApp = (
  exchange: SandboxExchange,
  logLevel?: string,
): FastifyInstance & { bybit: BybitDialect } => {
  const app: FastifyInstance = Fastify({ logger: logLevel ? loggerOptions(logLevel) : false });
  // The signature covers the JSON body byte for byte: keep it as the raw string (bybit-request.ts).
  app.addContentTypeParser(
    ['application/json', 'application/x-www-form-urlencoded', 'text/plain'],
    { parseAs: 'string' },
    (_req, body, done) => done(null, body),
  );
  app.addHook('preSerialization', async (request, _reply, payload) => {
    if (!request.url.startsWith('/v5/')) return payload;
    return envelope(0, 'OK', payload, exchange.now());
  });
  // Sent as text, so the success hook above does not wrap a refusal a second time.
  const refuse = (reply: FastifyReply, refusal: BybitError) =>
    reply
      .status(refusal.httpStatus)
      .type('application/json')
      .send(JSON.stringify(envelope(refusal.retCode, refusal.retMsg, {}, exchange.now())));
  app.setErrorHandler(async (error, request, reply) => {
    const known = asBybitError(error);
    if (known) return refuse(reply, known);
    const failure = error as { validation?: unknown; statusCode?: number };
    // A body that is not JSON and the like: Bybit's parameter error.
    if (failure.validation || (failure.statusCode ?? 500) < 500) return refuse(reply, bybitError('10001'));
    request.log.error(error);
    return refuse(reply, bybitError('10016'));
  });
  app.setNotFoundHandler(async (_request, reply) =>
    reply.status(404).type('text/plain').send('404 page not found'),
  );
  // Bybit checks its limits first: a client over them is refused before anything else happens.
  const limits = new BybitRateLimits(() => exchange.now());
  enforceBybitRateLimits(app, exchange, limits);
  // An outage strikes after the limits (a preHandler, after their onRequest hook).
  const faults = bybitFaults();
  enforceBybitFaults(app, exchange, faults);
  app.get('/health', async () => ({ ok: true, services: ['exchange-bybit'] }));
  bybitMarketRoutes(app, exchange);
  bybitAccountRoutes(app, exchange);
  bybitOrderRoutes(app, exchange, faults);
  bybitOrderQueryRoutes(app, exchange);
  const stream = attachBybitPrivateStream(app.server, exchange);
  // Before the server closes: an open WebSocket would keep it from closing.
  app.addHook('preClose', async () => stream.close());
  const dialect: BybitDialect = { stream, limits, faults, exchange };
  void app.register(bybitControlRoutes, { dialect });
  return Object.assign(app, { bybit: dialect });
};
