import { httpRequestDuration } from '@gridbot/metrics';
import fp from 'fastify-plugin';

/**
 * The request latency histogram (docs/operations.md#metrics): by the route's pattern (never the raw
 * URL, so ids do not multiply the series), method and status. One observation per answered request.
 */
export const requestMetricsPlugin = fp(
  async (app) => {
    app.addHook('onResponse', async (request, reply) => {
      httpRequestDuration
        .labels(request.routeOptions.url ?? 'unmatched', request.method, String(reply.statusCode))
        .observe(reply.elapsedTime / 1000);
    });
  },
  { name: 'request-metrics' },
);
