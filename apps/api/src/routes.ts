import { type AnyEndpoint, type EndpointDefinition, endpoints, ZErrorBody } from '@gridbot/contracts';
import { AppError } from '@gridbot/services';
import type { FastifyInstance } from 'fastify';
import { handlers } from './handlers';
import type { Handler } from './types';

/** Sign-in is keyed by IP (no user yet): enough for re-auth every 540 s, not for guessing. */
const SIGN_IN_LIMIT = { max: 30, timeWindow: 60_000 };

const notImplemented: Handler = async () => {
  throw new AppError('NOT_IMPLEMENTED');
};

const schemaOf = (endpoint: EndpointDefinition) => {
  const errorResponses = Object.fromEntries(
    Object.entries(endpoint.errors).map(([status, text]) => [status, ZErrorBody.describe(String(text))]),
  );
  return {
    summary: endpoint.summary,
    tags: [...endpoint.tags],
    operationId: endpoint.id,
    ...(endpoint.auth ? { security: [{ bearer: [] }] } : {}),
    ...(endpoint.params ? { params: endpoint.params } : {}),
    ...(endpoint.query ? { querystring: endpoint.query } : {}),
    ...(endpoint.headers ? { headers: endpoint.headers } : {}),
    ...(endpoint.body ? { body: endpoint.body } : {}),
    response: { 200: endpoint.response, ...errorResponses },
  };
};

const rateLimitOf = (endpoint: EndpointDefinition) => {
  if (endpoint.rateLimit) return { max: endpoint.rateLimit.max, timeWindow: endpoint.rateLimit.windowMs };
  return endpoint.auth ? undefined : SIGN_IN_LIMIT;
};

/** Registers every contract (docs/product.md#calls) at its exact path; demo routes only in demo mode. */
export const registerRoutes = async (app: FastifyInstance) => {
  const all: readonly EndpointDefinition[] = endpoints;
  for (const endpoint of all) {
    if (endpoint.tags.includes('demo') && !app.deps.demoUser) continue;
    const rateLimit = rateLimitOf(endpoint);
    app.route({
      method: endpoint.method,
      url: endpoint.path,
      schema: schemaOf(endpoint),
      config: { endpoint: endpoint as AnyEndpoint, ...(rateLimit ? { rateLimit } : {}) },
      handler: handlers[endpoint.id as AnyEndpoint['id']] ?? notImplemented,
    });
  }
};
