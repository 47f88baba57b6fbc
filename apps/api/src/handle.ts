import type { EndpointDefinition } from '@gridbot/contracts';
import type { ServiceContext, SessionClaims } from '@gridbot/services';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Handler } from './types';

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

export type HandlerInput<E extends EndpointDefinition> = {
  params: Out<E['params']>;
  query: Out<E['query']>;
  /** The headers the contract declares, validated (other headers are on the request). */
  headers: Out<E['headers']>;
  body: Out<E['body']>;
  /** Present on every `auth: true` contract (the auth hook guarantees it). */
  session: E['auth'] extends true ? SessionClaims : SessionClaims | null;
};

/**
 * Binds a handler to its contract with the contract's types: the handler receives the process's
 * service context and the validated input, calls a service, and returns the contract's response
 * (serialized through the same zod schema).
 */
export const handle = <E extends EndpointDefinition>(
  endpoint: E,
  fn: (
    ctx: ServiceContext,
    input: HandlerInput<E>,
    request: FastifyRequest,
    reply: FastifyReply,
  ) => Promise<z.input<E['response']>>,
): [E['id'], Handler] => [
  endpoint.id,
  (request, reply) =>
    fn(
      // The request's logger: service log lines of this call carry its reqId (docs/operations.md#logs).
      { ...request.server.deps.ctx, log: request.log },
      {
        params: request.params,
        query: request.query,
        headers: request.headers,
        body: request.body,
        session: request.session,
      } as HandlerInput<E>,
      request,
      reply,
    ),
];
