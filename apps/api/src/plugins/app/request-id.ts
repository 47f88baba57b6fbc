import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';

export const REQUEST_ID_HEADER = 'x-request-id';

/** A caller's id is kept when it is a plain token (a UUID, a proxy's hex id); anything else is replaced. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's `genReqId`: the incoming X-Request-Id when it is sane (a proxy or a client tracing a
 * call across services), else a new UUID. Every log line of the request carries it as `reqId`
 * (docs/operations.md#logs).
 */
export const requestIdOf = (request: IncomingMessage): string => {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
};

/** Every answer names its request id, so an operator can find its log lines from a user's report. */
export const requestIdPlugin = fp(
  async (app) => {
    app.addHook('onRequest', async (request, reply) => {
      void reply.header(REQUEST_ID_HEADER, request.id);
    });
  },
  { name: 'request-id' },
);
