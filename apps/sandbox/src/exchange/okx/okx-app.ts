import { loggerOptions } from '@gridbot/runtime';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { loopbackOnly } from '../../loopback';
import type { SandboxExchange } from '../sandbox-exchange';
import { okxAccountRoutes } from './okx-account-routes';
import { asOkxError, envelope, type OkxError, okxError } from './okx-error';
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

/**
 * The Fastify app speaking OKX's v5 spot dialect (not listening yet), on the same SandboxExchange
 * as the other dialects: same markets, prices, accounts and orders. Every route returns its `data`
 * list; this wraps it in OKX's envelope (`code` "0", `msg` "", `data`), and a refusal in its code,
 * words and HTTP status (docs/venues/okx.md#errors). The private WebSocket is `/ws/v5/private` on
 * the same port (okx-socket.ts).
 */
/** What a test or the control API may do to the OKX dialect beyond the shared exchange. */
export type OkxDialect = {
  /** The private WebSocket `/ws/v5/private`. */
  stream: OkxStreamControl;
};

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
  enforceOkxRateLimits(app, new OkxRateLimits(options.limits), exchange.accounts);
  okxMarketRoutes(app, exchange);
  okxAccountRoutes(app, exchange);
  okxOrderRoutes(app, exchange);
  okxQueryRoutes(app, exchange);
  const socket = attachOkxPrivateSocket(app.server, exchange);
  // Before the server closes: an open WebSocket would keep it from closing.
  app.addHook('preClose', async () => socket.close());
  void app.register(async (control) => {
    control.addHook(
      'onRequest',
      loopbackOnly({ error: 'The sandbox control API answers on localhost only.' }),
    );
    // Cuts the private WebSocket's connections (a dropped network): clients log in and subscribe again.
    control.post('/_sandbox/okx/stream/drop', async () => ({ connections: socket.drop() }));
    // The notice OKX sends 60 s before an upgrade closes a connection (`closeAfterMs`, default 60 s).
    control.post<{ Body: string | undefined }>(
      '/_sandbox/okx/stream/upgrade-notice',
      async (request, reply) => {
        let closeAfterMs: unknown;
        try {
          closeAfterMs = request.body
            ? (JSON.parse(request.body) as { closeAfterMs?: unknown }).closeAfterMs
            : undefined;
        } catch {
          return reply.status(400).send({ error: 'a JSON body' });
        }
        if (
          closeAfterMs !== undefined &&
          !(
            Number.isInteger(closeAfterMs) &&
            (closeAfterMs as number) >= 0 &&
            (closeAfterMs as number) <= 600_000
          )
        )
          return reply.status(400).send({ error: 'closeAfterMs: an integer, 0…600000' });
        return { connections: socket.upgradeNotice(closeAfterMs as number | undefined) };
      },
    );
  });
  return Object.assign(app, { okx: { stream: socket } });
};
