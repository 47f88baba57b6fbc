import type { FastifyInstance } from 'fastify';
import { loopbackOnly } from '../../loopback';
import { badControl, controlBody, dialectLimitsRoute, intIn } from '../control-body';
import { dialectFaultRoutes } from '../dialect-faults';
import type { BybitDialect } from './bybit-app';

/**
 * The Bybit dialect's control API under /_sandbox/bybit/ on its own port, loopback clients only (as
 * the Binance port's /_sandbox/): its faults and rate limits, what `handle.bybit` does in process.
 */
export const bybitControlRoutes = async (app: FastifyInstance, { dialect }: { dialect: BybitDialect }) => {
  app.addHook('onRequest', loopbackOnly({ error: 'The sandbox control API answers on localhost only.' }));

  dialectFaultRoutes(app, '/_sandbox/bybit', dialect.faults, dialect.exchange.accounts);

  dialectLimitsRoute(app, '/_sandbox/bybit', dialect.limits);

  app.post('/_sandbox/bybit/limits/ban', async (request, reply) => {
    const body = controlBody(request.body);
    const ms = body?.ms === undefined ? undefined : intIn(body.ms, 1, 86_400_000);
    if (!body || (body.ms !== undefined && ms === undefined)) return badControl(reply, 'ms: 1…86400000');
    if (body.ip !== undefined && typeof body.ip !== 'string') return badControl(reply, 'ip: a string');
    dialect.limits.ban(ms, body.ip as string | undefined);
    return { ok: true };
  });

  // A 10006 forced on one account's endpoint pool until `forMs` from now (bybit-rate-limits.ts).
  app.post('/_sandbox/bybit/limits/force', async (request, reply) => {
    const body = controlBody(request.body);
    const forMs = intIn(body?.forMs, 1, 600_000);
    const key = typeof body?.apiKey === 'string' ? dialect.exchange.accounts.key(body.apiKey) : undefined;
    if (!body || forMs === undefined || typeof body.pool !== 'string' || !key)
      return badControl(reply, 'pool: a per-UID pool id, apiKey: a known key, forMs: 1…600000');
    try {
      const until = dialect.limits.force({ pool: body.pool, accountId: key.accountId, forMs });
      return { pool: body.pool, until };
    } catch (error) {
      return badControl(reply, (error as Error).message);
    }
  });

  app.post('/_sandbox/bybit/limits/reset', async () => {
    dialect.limits.reset();
    return { ok: true };
  });

  // Cuts the private stream's connections (a dropped network): clients reconnect and resubscribe.
  app.post('/_sandbox/bybit/stream/drop', async () => ({ connections: dialect.stream.drop() }));
};
