import rateLimit from '@fastify/rate-limit';
import { AppError, isAppError } from '@gridbot/services';
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

/** The window of the recipient-miss budget (docs/wallet.md#internal-transfer). */
export const RECIPIENT_MISS_WINDOW_MS = 86_400_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts (or, with increment: false, reads) one IP's failed bearer tokens. */
    authFailures: Limiter;
    /** Counts (or reads) one user's lookups of UIDs nobody has, per 24 hours. */
    recipientMisses: Limiter;
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
    app.decorate(
      'recipientMisses',
      app.createRateLimit({
        max: app.deps.ctx.env.RECIPIENT_MISSES_PER_DAY,
        timeWindow: RECIPIENT_MISS_WINDOW_MS,
        keyGenerator: (request) => `recipient-miss:${request.session?.userId ?? `ip:${request.ip}`}`,
      }) as Limiter,
    );
  },
  { name: 'rate-limit' },
);

/**
 * Runs a call that names a transfer recipient by UID within the user's budget of misses
 * (docs/wallet.md#internal-transfer): UIDs are sequential, so a lookup that confirms who a UID is
 * could list every user. Each UID nobody has spends one of RECIPIENT_MISSES_PER_DAY, lookups and
 * transfers alike. Once they are spent, within 24 hours of the first: every lookup is refused
 * (RECIPIENT_LOOKUPS_EXHAUSTED, 429), existing UIDs too, or probing would go on; a transfer to a UID
 * nobody has is refused the same way. A transfer to an existing UID still goes through: it costs
 * at least 1 USDT, which the recipient keeps, and shows no more than the masked name. The budget
 * is read before a lookup only, so a transfer's way to success costs no extra round trip.
 */
export const withinRecipientBudget = async <T>(
  request: FastifyRequest,
  kind: 'lookup' | 'transfer',
  call: () => Promise<T>,
): Promise<T> => {
  if (kind === 'lookup') {
    const budget = await request.server.recipientMisses(request, { increment: false });
    if (budget.remaining <= 0) throw new AppError('RECIPIENT_LOOKUPS_EXHAUSTED');
  }
  try {
    return await call();
  } catch (error) {
    if (isAppError(error) && error.code === 'TRANSFER_RECIPIENT_MISSING') {
      const spent = await request.server.recipientMisses(request);
      if (spent.isExceeded) throw new AppError('RECIPIENT_LOOKUPS_EXHAUSTED');
    }
    throw error;
  }
};
