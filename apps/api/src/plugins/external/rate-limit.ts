import rateLimit from '@fastify/rate-limit';
import { AppError } from '@gridbot/services';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** Generous default for routes the spec does not limit: per user (or IP before sign-in). */
const DEFAULT_LIMIT = { max: 300, timeWindow: 60_000 };

const keyOf = (request: FastifyRequest) =>
  request.session ? `u:${request.session.userId}` : `ip:${request.ip}`;

/**
 * Server-side limits per user, at least as strict as spec §9; each contract's `rateLimit` is applied
 * to its route (see routes.ts). Redis-backed when REDIS_URL is set so replicas share the counters.
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
  },
  { name: 'rate-limit', dependencies: ['auth'] },
);
