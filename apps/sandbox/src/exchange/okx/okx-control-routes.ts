import type { FastifyInstance } from 'fastify';
import { loopbackOnly } from '../../loopback';
import { badControl, controlBody, dialectLimitsRoute, intIn } from '../control-body';
import { dialectFaultRoutes } from '../dialect-faults';
import type { SymbolStatus } from '../markets';
import type { OkxDialect } from './okx-app';
import { okxMarket } from './okx-market-routes';

/** OKX's instrument states (Get instruments › state) as the shared exchange's symbol statuses. */
const STATES: Readonly<Record<string, SymbolStatus>> = {
  live: 'TRADING',
  suspend: 'HALT',
  preopen: 'PRE_TRADING',
};

const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * The OKX dialect's control API under /_sandbox/okx/ on its own port, loopback clients only (as the
 * Bybit port's /_sandbox/bybit/): its faults and rate limits, and, in OKX's words, the shared
 * exchange's clock, an instrument's state and its filters (the same changes the Binance port's
 * /_sandbox/clock and /_sandbox/markets/… make, seen by every dialect).
 */
export const okxControlRoutes = async (app: FastifyInstance, { dialect }: { dialect: OkxDialect }) => {
  app.addHook('onRequest', loopbackOnly({ error: 'The sandbox control API answers on localhost only.' }));

  // How many connections the private WebSocket holds open (a client replacing one before an upgrade holds two for a moment).
  app.get('/_sandbox/okx/stream/connections', async () => ({ connections: dialect.stream.connections() }));
  // Cuts the private WebSocket's connections (a dropped network): clients log in and subscribe again.
  app.post('/_sandbox/okx/stream/drop', async () => ({ connections: dialect.stream.drop() }));
  // The notice OKX sends 60 s before an upgrade closes a connection (`closeAfterMs`, default 60 s).
  app.post('/_sandbox/okx/stream/upgrade-notice', async (request, reply) => {
    const body = controlBody(request.body);
    if (!body) return badControl(reply, 'a JSON body');
    const closeAfterMs = body.closeAfterMs === undefined ? undefined : intIn(body.closeAfterMs, 0, 600_000);
    if (body.closeAfterMs !== undefined && closeAfterMs === undefined)
      return badControl(reply, 'closeAfterMs: an integer, 0…600000');
    return { connections: dialect.stream.upgradeNotice(closeAfterMs) };
  });

  dialectFaultRoutes(app, '/_sandbox/okx', dialect.faults, dialect.exchange.accounts);

  dialectLimitsRoute(app, '/_sandbox/okx', dialect.limits);

  // A 50011 forced on one account's (or IP's) pool, by default until its window ends (okx-rate-limits.ts).
  app.post('/_sandbox/okx/limits/force', async (request, reply) => {
    const body = controlBody(request.body);
    const forMs = body?.forMs === undefined ? undefined : intIn(body.forMs, 1, 600_000);
    const key = typeof body?.apiKey === 'string' ? dialect.exchange.accounts.key(body.apiKey) : undefined;
    const bad =
      'pool: an OKX pool id; apiKey: a known key (private pools) or ip (public ones); forMs: 1…600000';
    if (!body || typeof body.pool !== 'string' || (body.forMs !== undefined && forMs === undefined))
      return badControl(reply, bad);
    if (body.apiKey !== undefined && !key) return badControl(reply, bad);
    if (body.ip !== undefined && typeof body.ip !== 'string') return badControl(reply, bad);
    try {
      const until = dialect.limits.force({
        pool: body.pool,
        ...(key ? { accountId: key.accountId } : {}),
        ...(typeof body.ip === 'string' ? { ip: body.ip } : {}),
        ...(forMs === undefined ? {} : { forMs }),
      });
      return { pool: body.pool, until };
    } catch (error) {
      return badControl(reply, (error as Error).message);
    }
  });

  app.post('/_sandbox/okx/limits/reset', async () => {
    dialect.limits.reset();
    return { ok: true };
  });

  app.put('/_sandbox/okx/clock', async (request, reply) => {
    const offsetMs = intIn(controlBody(request.body)?.offsetMs, -86_400_000, 86_400_000);
    if (offsetMs === undefined) return badControl(reply, 'offsetMs: an integer, ±86400000');
    dialect.exchange.skewClock(offsetMs);
    return { offsetMs };
  });

  app.put<{ Params: { instId: string } }>(
    '/_sandbox/okx/instruments/:instId/state',
    async (request, reply) => {
      const state = controlBody(request.body)?.state;
      const status = typeof state === 'string' ? STATES[state] : undefined;
      if (!status) return badControl(reply, 'state: live, suspend or preopen');
      const { market } = okxMarket(dialect.exchange, request.params.instId);
      dialect.exchange.setStatus(market.symbol, status);
      return { instId: request.params.instId, state };
    },
  );

  app.put<{ Params: { instId: string } }>(
    '/_sandbox/okx/instruments/:instId/filters',
    async (request, reply) => {
      const body = controlBody(request.body);
      const fields = { tickSz: 'tickSize', lotSz: 'stepSize', minSz: 'minQty' } as const;
      const change: Partial<Record<(typeof fields)[keyof typeof fields], string>> = {};
      for (const [ours, theirs] of Object.entries(fields)) {
        const value = body?.[ours];
        if (value === undefined) continue;
        if (typeof value !== 'string' || !DECIMAL.test(value))
          return badControl(reply, `${ours}: a decimal string`);
        change[theirs] = value;
      }
      if (Object.keys(change).length === 0) return badControl(reply, 'tickSz, lotSz or minSz');
      const { market } = okxMarket(dialect.exchange, request.params.instId);
      const changed = dialect.exchange.setFilters(market.symbol, change);
      return {
        instId: request.params.instId,
        tickSz: changed.tickSize.toFixed(),
        lotSz: changed.stepSize.toFixed(),
        minSz: changed.minQty.toFixed(),
      };
    },
  );
};
