import rateLimit from '@fastify/rate-limit';
import { AppError } from '@gridbot/services';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** Generous default for routes the spec does not limit: per user (or IP before sign-in). */
const DEFAULT_LIMIT = { max: 300, timeWindow: 60_000 };

/**
 * Failed sign-ins by bearer token per IP and minute on protected routes (docs/security.md#rate-limits).
 * Past it, the IP's token-less or bad-token requests get 429; valid tokens still pass.
 */
export const AUTH_FAILURE_LIMIT = { max: 30, timeWindow: 60_000 };

const keyOf = (request: FastifyRequest) =>
  request.session ? `u:${request.session.userId}` : `ip:${request.ip}`;

type Limiter = (
  request: FastifyRequest,
  options?: { increment?: boolean },
) => Promise<{ isExceeded: boolean; remaining: number }>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts (or, with increment: false, reads) one IP's failed bearer tokens. */
    authFailures: Limiter;
  }
}

/**
 * Server-side limits per user, at least as strict as docs/product.md#limits; each contract's `rateLimit` is applied
 * to its route (see routes.ts) with a budget of its own. Redis-backed when REDIS_URL is set so
 * replicas share the counters. Registered before the auth plugin, which uses `authFailures`.
 */
export const rateLimitPlugin = fp(
  async (app) => {
    await app.register(rateLimit, {
      global: true,
      ...DEFAULT_LIMIT,
      keyGenerator: keyOf,
      ...(app.deps.redis
        ? { redis: app.deps.redis, nameSpace: `${app.deps.redisPrefix ?? 'gridbot:'}rl:` }
        : {}),
      errorResponseBuilder: () => new AppError('RATE_LIMITED'),
    });
    app.decorate(
      'authFailures',
      app.createRateLimit({
        ...AUTH_FAILURE_LIMIT,
        keyGenerator: (request) => `authfail:${request.ip}`,
      }) as Limiter,
    );
  },
  { name: 'rate-limit' },
);
