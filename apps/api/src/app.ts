import Fastify, { type FastifyReply, type FastifySchemaCompiler, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { authPlugin } from './plugins/app/auth';
import { classify, errorBody, errorsPlugin, headerLanguage } from './plugins/app/errors';
import { healthPlugin } from './plugins/app/health';
import { REQUEST_ID_HEADER, requestIdOf, requestIdPlugin } from './plugins/app/request-id';
import { requestMetricsPlugin } from './plugins/app/request-metrics';
import { webPlugin } from './plugins/app/web';
import { docsPlugin } from './plugins/external/docs';
import { rateLimitPlugin } from './plugins/external/rate-limit';
import { securityPlugin } from './plugins/external/security';
import { registerRoutes } from './routes';
import type { AppDeps } from './types';

/**
 * Fastify hands a missing body to the validator as null; contracts mean "no body" as undefined so
 * their defaults apply (sign-in without a body is "initData missing", not a type error).
 */
const contractValidator: FastifySchemaCompiler<Parameters<typeof validatorCompiler>[0]['schema']> = (
  route,
) => {
  const validate = validatorCompiler(route);
  return route.httpPart === 'body' ? (data) => validate(data === null ? undefined : data) : validate;
};

/**
 * Builds the HTTP app: request ids and latency first, plugins (external, then app), the operational
 * routes (/healthz, /readyz, /metrics), then one route per contract.
 */
export const buildApp = async (deps: AppDeps) => {
  const { env } = deps.ctx;
  const app = Fastify({
    loggerInstance: deps.logger,
    bodyLimit: env.BODY_LIMIT_BYTES,
    // docs/security.md#hostile-input: headers within HTTP_HEADERS_TIMEOUT_MS, the whole request
    // (body included) within HTTP_REQUEST_TIMEOUT_MS, else 408 and the connection closes. Node checks
    // the open connections against them every connectionsCheckingInterval (default 30 s: too coarse).
    requestTimeout: env.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    http: {
      headersTimeout: env.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeout: env.HTTP_REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(env.HTTP_HEADERS_TIMEOUT_MS / 4))),
    },
    // Only the configured number of proxy hops is trusted (X-Forwarded-For beyond them is the client's).
    trustProxy: (_address: string, hop: number) => hop < env.TRUST_PROXY_HOPS,
    routerOptions: { ignoreTrailingSlash: true },
    // docs/operations.md#logs: a sane incoming X-Request-Id is kept, else a new UUID; sent back.
    requestIdHeader: false,
    genReqId: requestIdOf,
    // The demo's console shows events (coin bots trading), not every request.
    logController: new LogController({ disableRequestLogging: env.DEMO }),
    // Errors raised before routing (a malformed URL such as `/home/config/%E0%A4%A/get`) get the
    // same error body as every other failure.
    frameworkErrors: (error, request, reply) => {
      const language = headerLanguage(request.headers['accept-language']);
      const classified = classify(error, language);
      void (reply as FastifyReply).header(REQUEST_ID_HEADER, request.id);
      void (reply as FastifyReply).status(classified.status).send(errorBody(classified, language));
    },
  });
  app.setValidatorCompiler(contractValidator);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('deps', deps);

  await app.register(requestIdPlugin);
  await app.register(requestMetricsPlugin);
  await app.register(errorsPlugin);
  await app.register(securityPlugin);
  // docs/operations.md#api-docs: /docs only when API_DOCS is on (default: demo mode only).
  if (env.API_DOCS) await app.register(docsPlugin);
  // Before auth: a browser navigation to a screen that shares its path with a call (/partners)
  // gets the app, not the call's 401.
  await app.register(webPlugin);
  await app.register(rateLimitPlugin);
  await app.register(authPlugin);
  await app.register(healthPlugin);
  await app.register(registerRoutes);
  return app;
};
