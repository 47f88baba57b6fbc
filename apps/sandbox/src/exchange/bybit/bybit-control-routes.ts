import type { FastifyInstance } from 'fastify';
import { loopbackOnly } from '../../loopback';
import { badControl, controlBody, intIn } from '../control-body';
import type { BybitDialect } from './bybit-app';
import type { BybitOrderFault, BybitOutage } from './bybit-faults';

/**
 * The Bybit dialect's control API under /_sandbox/bybit/ on its own port, loopback clients only (as
 * the Binance port's /_sandbox/): its faults and rate limits, what `handle.bybit` does in process.
 */
export const bybitControlRoutes = async (app: FastifyInstance, { dialect }: { dialect: BybitDialect }) => {
  app.addHook('onRequest', loopbackOnly({ error: 'The sandbox control API answers on localhost only.' }));

  app.post('/_sandbox/bybit/faults/outage', async (request, reply) => {
    const body = controlBody(request.body);
    const forMs = intIn(body?.forMs, 0, 600_000);
    const kind = body?.kind;
    if (!body || forMs === undefined) return badControl(reply, 'forMs: an integer, 0…600000');
    let outage: BybitOutage;
    if (kind === 'status') {
      const status = body.status;
      if (status !== 500 && status !== 502 && status !== 503 && status !== 504)
        return badControl(reply, 'status: 500, 502, 503 or 504');
      outage = { kind, status, forMs };
    } else if (kind === 'timeout') {
      const delayMs = body.delayMs === undefined ? undefined : intIn(body.delayMs, 0, 120_000);
      if (body.delayMs !== undefined && delayMs === undefined) return badControl(reply, 'delayMs: 0…120000');
      outage = { kind, forMs, ...(delayMs === undefined ? {} : { delayMs }) };
    } else if (kind === 'error' || kind === 'unknown') {
      outage = { kind, forMs };
    } else {
      return badControl(reply, 'kind: status, error, timeout or unknown');
    }
    dialect.faults.startOutage(outage);
    return { ok: true };
  });

  app.post('/_sandbox/bybit/faults/next-order', async (request, reply) => {
    const body = controlBody(request.body);
    let fault: BybitOrderFault;
    if (body?.kind === 'drop' || body?.kind === 'unknown') fault = { kind: body.kind };
    else if (body?.kind === 'delay') {
      const delayMs = intIn(body.delayMs, 0, 120_000);
      if (delayMs === undefined) return badControl(reply, 'delayMs: 0…120000');
      fault = { kind: 'delay', delayMs };
    } else return badControl(reply, 'kind: drop, delay or unknown');
    dialect.faults.failNextOrderResponse(fault);
    return { ok: true };
  });

  app.post('/_sandbox/bybit/faults/reset', async () => {
    dialect.faults.reset();
    return { ok: true };
  });

  app.post('/_sandbox/bybit/limits', async (request, reply) => {
    const body = controlBody(request.body);
    if (!body) return badControl(reply, 'a JSON object of pool id → limit');
    try {
      return { limits: dialect.limits.setLimits(body as Record<string, number>) };
    } catch (error) {
      return badControl(reply, (error as Error).message);
    }
  });

  app.post('/_sandbox/bybit/limits/ban', async (request, reply) => {
    const body = controlBody(request.body);
    const ms = body?.ms === undefined ? undefined : intIn(body.ms, 1, 86_400_000);
    if (!body || (body.ms !== undefined && ms === undefined)) return badControl(reply, 'ms: 1…86400000');
    if (body.ip !== undefined && typeof body.ip !== 'string') return badControl(reply, 'ip: a string');
    dialect.limits.ban(ms, body.ip as string | undefined);
    return { ok: true };
  });

  app.post('/_sandbox/bybit/limits/reset', async () => {
    dialect.limits.reset();
    return { ok: true };
  });

  // Cuts the private stream's connections (a dropped network): clients reconnect and resubscribe.
  app.post('/_sandbox/bybit/stream/drop', async () => ({ connections: dialect.stream.drop() }));
};
