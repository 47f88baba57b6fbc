import type { FastifyInstance } from 'fastify';
import { loopbackOnly } from '../../loopback';
import type { UserDataConnections, UserDataLimits } from '../user-data-connections';

const positive = { type: 'integer', minimum: 1 } as const;

/**
 * The control API of the WebSocket API's connections, under /_sandbox/user-data/ (loopback only,
 * like every control route): what is connected, the limits in force (tests shorten them), and
 * Binance's `serverShutdown` on demand. docs/venues/binance.md#user-data-stream
 */
export const userDataControlRoutes = async (
  app: FastifyInstance,
  { connections }: { connections: UserDataConnections },
) => {
  app.addHook(
    'onRequest',
    loopbackOnly({ code: -2015, msg: 'The sandbox control API answers on localhost only.' }),
  );

  app.get('/_sandbox/user-data/connections', async () => ({
    connections: connections.connections(),
    accepted: connections.accepted,
    refused: connections.refused,
    limits: connections.limits,
  }));
  app.put<{ Body: Partial<UserDataLimits> }>(
    '/_sandbox/user-data/limits',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            connectionsPerWindow: positive,
            connectionWindowMs: positive,
            connectionLifeMs: positive,
            subscriptionsPerConnection: positive,
            subscriptionsPerConnectionLifetime: positive,
            pingIntervalMs: positive,
            pongTimeoutMs: positive,
          },
        },
      },
    },
    // Connections take the limits in force when they open: a shorter life applies to the next ones.
    async (request) => connections.setLimits(request.body ?? {}),
  );
  app.post<{ Body: { closeAfterMs?: number; connections?: number[] } }>(
    '/_sandbox/user-data/server-shutdown',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            closeAfterMs: { type: 'integer', minimum: 0, maximum: 600_000 },
            connections: { type: 'array', items: positive },
          },
        },
      },
    },
    async (request) => ({
      connections: connections.shutdown(request.body?.closeAfterMs ?? 5000, request.body?.connections),
    }),
  );
  app.post<{ Body: { connections?: number[] } }>(
    '/_sandbox/user-data/drop',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { connections: { type: 'array', items: positive } },
        },
      },
    },
    async (request) => ({ connections: connections.drop(request.body?.connections) }),
  );
};
