import { pingDatabase } from '@gridbot/db';
import { observeQueueDepth } from '@gridbot/jobs';
import { collectProcessMetrics, metricsAllowed, renderMetrics } from '@gridbot/metrics';
import { createReadiness, livenessBody, type Readiness, readinessStatusCode } from '@gridbot/runtime';
import { AppError } from '@gridbot/services';
import type { RouteShorthandOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { AppDeps } from '../../types';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's readiness: /readyz reports it; the stop path marks it stopping first. */
    readiness: Readiness;
  }
}

/**
 * The dependencies the API cannot answer without: the database, Redis (rate limits) when
 * configured, and the job queue it enqueues to.
 */
export const apiReadiness = (deps: AppDeps): Readiness =>
  createReadiness([
    { name: 'database', check: () => pingDatabase(deps.ctx.prisma) },
    ...(deps.redis ? [{ name: 'redis', check: () => deps.redis!.ping() }] : []),
    { name: 'queue', check: () => deps.ctx.queue.ping() },
  ]);

/**
 * Operational routes, outside the contracts (docs/operations.md#health): no auth, no rate limit,
 * hidden from the OpenAPI document, never answered by the web app, and quiet in the request log
 * (a probe every few seconds would drown it). In the embedded process these answer for every app
 * it runs.
 */
const OPERATIONAL: RouteShorthandOptions = {
  schema: { hide: true },
  config: { rateLimit: false, operational: true },
  logLevel: 'warn',
};

export const healthPlugin = fp(
  async (app) => {
    collectProcessMetrics();
    app.decorate('readiness', app.deps.readiness ?? apiReadiness(app.deps));
    // The queue this process enqueues to (in the embedded process, the one it runs): its depth.
    const unobserve = observeQueueDepth(app.deps.ctx.queue);
    app.addHook('onClose', async () => unobserve());
    app.get('/healthz', OPERATIONAL, async (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      return livenessBody();
    });
    app.get('/readyz', OPERATIONAL, async (_request, reply) => {
      const report = await app.readiness.report();
      return reply.header('cache-control', 'no-store').status(readinessStatusCode(report)).send(report);
    });
    // docs/operations.md#metrics: the API's port is the public one, so outside demo mode it serves
    // /metrics only to the bearer of METRICS_TOKEN; without one it has no /metrics at all (404).
    const { DEMO, METRICS_TOKEN } = app.deps.ctx.env;
    if (!DEMO && !METRICS_TOKEN) return;
    app.get('/metrics', OPERATIONAL, async (request, reply) => {
      if (!metricsAllowed(request.headers.authorization, app.deps.ctx.env.METRICS_TOKEN)) {
        throw new AppError('UNAUTHORIZED');
      }
      const { contentType, body } = await renderMetrics();
      return reply.header('cache-control', 'no-store').type(contentType).send(body);
    });
  },
  { name: 'health' },
);
