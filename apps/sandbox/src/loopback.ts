import type { FastifyReply, FastifyRequest } from 'fastify';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export const isLoopback = (request: FastifyRequest): boolean =>
  LOOPBACK.has(request.socket.remoteAddress ?? '');

/**
 * The onRequest hook of a control scope: a control API can mint money, so it answers only on the
 * loopback interface, whatever address the server is bound to. Registered inside the control
 * routes' own encapsulated scope, it runs for every request the router hands to them, however the
 * path was spelled (`/%5Fsandbox/…` routes there too); a prefix test on the raw URL let encoded
 * spellings through.
 */
export const loopbackOnly =
  (refusal: object) =>
  async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (isLoopback(request)) return;
    await reply.status(403).send(refusal);
  };
