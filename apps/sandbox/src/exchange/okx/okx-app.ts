import { loggerOptions } from '@gridbot/runtime';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { SandboxExchange } from '../sandbox-exchange';
import { okxAccountRoutes } from './okx-account-routes';
import { okxControlRoutes } from './okx-control-routes';
import { asOkxError, envelope, type OkxError, okxError } from './okx-error';
import { enforceOkxFaults, type OkxFaults, okxFaults } from './okx-faults';
import { okxMarketRoutes } from './okx-market-routes';
import { okxOrderRoutes } from './okx-order-routes';
import { okxQueryRoutes } from './okx-query-routes';
import { enforceOkxRateLimits, OkxRateLimits } from './okx-rate-limits';
import { attachOkxPrivateSocket, type OkxStreamControl } from './okx-socket';

export type OkxAppOptions = {
  logLevel?: string;
  /** Lower (or raise) OKX's limits by pool id (packages/venues okx.pools), e.g. `{ BALANCE: 2 }`. */
  limits?: Record<string, number>;
};

/** What a test or the control API may do to the OKX dialect beyond the shared exchange. */
export type OkxDialect = {
  /** Its rate limits: lower them, reset (okx-rate-limits.ts). */
  limits: OkxRateLimits;
  /** Its outages and spoiled order answers (okx-faults.ts). */
  faults: OkxFaults;
  /** The shared exchange (the control API's clock, instrument state and filters). */
  exchange: SandboxExchange;
  /** The private WebSocket `/ws/v5/private`: drop its connections, send the upgrade notice. */
  stream: OkxStreamControl;
};

/**
 * The Fastify app speaking OKX's v5 spot dialect (not listening yet), on the same SandboxExchange
 * as the other dialects: same markets, prices, accounts and orders. Every route returns its `data`
 * list; this wraps it in OKX's envelope (`code` "0", `msg` "", `data`), and a refusal in its code,
 * words and HTTP status (docs/venues/okx.md#errors). The private WebSocket is `/ws/v5/private` on
 * the same port (okx-socket.ts).
 */
export const buildOkxApp = (
  exchange: SandboxExchange,
  options: OkxAppOptions = {},
): FastifyInstance & { okx: OkxDialect } => {
  const app: FastifyInstance = Fastify({
    logger: options.logLevel ? loggerOptions(options.logLevel) : false,
  });
  // The signature covers the JSON body byte for byte: keep it as the raw string (okx-request.ts).
  app.addContentTypeParser(
    ['application/json', 'application/x-www-form-urlencoded', 'text/plain'],
    { parseAs: 'string' },
    (_req, body, done) => done(null, body),
  );
  app.addHook('preSerialization', async (request, _reply, payload) => {
    if (!request.url.startsWith('/api/v5/')) return payload;
    return envelope('0', '', payload);
  });
  // Sent as text, so the success hook above does not wrap a refusal a second time.
  const refuse = (reply: FastifyReply, refusal: OkxError) =>
    reply
      .status(refusal.httpStatus)
      .type('application/json')
      .send(JSON.stringify(envelope(refusal.code, refusal.msg, [])));
  app.setErrorHandler(async (error, request, reply) => {
    const known = asOkxError(error);
    if (known) return refuse(reply, known);
    const failure = error as { validation?: unknown; statusCode?: number };
    if (failure.validation || (failure.statusCode ?? 500) < 500)
      return refuse(reply, okxError('51000', 'body'));
    request.log.error(error);
    return refuse(reply, okxError('50026'));
  });
  app.setNotFoundHandler(async (_request, reply) =>
    reply.status(404).type('text/plain').send('404 page not found'),
  );
  app.get('/health', async () => ({ ok: true, services: ['exchange-okx'] }));
  // Windows on the venue's clock (the control API's skew moves it), not this host's.
  const limits = new OkxRateLimits(options.limits, () => exchange.now());
  enforceOkxRateLimits(app, limits, exchange.accounts);
  // An outage strikes after the limits (a preHandler, after their onRequest hook).
  const faults = okxFaults();
  enforceOkxFaults(app, faults);
  okxMarketRoutes(app, exchange);
  okxAccountRoutes(app, exchange);
  okxOrderRoutes(app, exchange, faults);
  okxQueryRoutes(app, exchange);
  const socket = attachOkxPrivateSocket(app.server, exchange, faults.streamSilence);
  // Before the server closes: an open WebSocket would keep it from closing.
  app.addHook('preClose', async () => socket.close());
  const dialect: OkxDialect = { limits, faults, exchange, stream: socket };
  void app.register(okxControlRoutes, { dialect });
  return Object.assign(app, { okx: dialect });
};
