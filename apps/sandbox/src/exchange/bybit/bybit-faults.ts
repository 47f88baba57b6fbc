import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { SandboxExchange } from '../sandbox-exchange';
import { bybitError, envelope } from './bybit-error';

/**
 * A while in which the Bybit dialect misbehaves as Bybit does in an incident, for its own endpoints
 * only (the Binance dialect's outages are the exchange's, control.startOutage):
 * - `status`: every `/v5/` call answers that HTTP status (5xx) and does nothing (error.mdx "HTTP
 *   code": a gateway failure carries no retCode);
 * - `error`: every `/v5/` call answers retCode 10016 "Server error." (HTTP 200) and does nothing;
 * - `timeout`: every `/v5/` call is answered `delayMs` late (a new order is carried out first);
 * - `unknown`: every new order is carried out and answered 10000 "Server Timeout".
 * 10016 and 10000 are the table's `unknown` outcomes: Bybit does not say whether the command was
 * carried out. docs/venues/bybit.md#errors
 */
export type BybitOutage =
  | { kind: 'status'; status: 500 | 502 | 503 | 504; forMs: number }
  | { kind: 'error' | 'unknown'; forMs: number }
  | { kind: 'timeout'; forMs: number; delayMs?: number };

/** How the answer to the next `POST /v5/order/create` goes wrong after the order was placed. */
export type BybitOrderFault = { kind: 'drop' } | { kind: 'delay'; delayMs: number } | { kind: 'unknown' };

const STATUS_TEXT: Record<number, string> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export class BybitFaults {
  private outage: (BybitOutage & { until: number }) | undefined;
  private readonly queue: BybitOrderFault[] = [];

  startOutage(outage: BybitOutage): void {
    this.outage = { ...outage, until: Date.now() + outage.forMs };
  }

  failNextOrderResponse(fault: BybitOrderFault): void {
    this.queue.push(fault);
  }

  /** No outage, no queued fault. */
  reset(): void {
    this.outage = undefined;
    this.queue.length = 0;
  }

  current(): BybitOutage | undefined {
    if (this.outage && this.outage.until <= Date.now()) this.outage = undefined;
    return this.outage;
  }

  /** The fault of the order just placed: the outage's, else the next queued one. */
  takeOrderFault(): BybitOrderFault | undefined {
    const outage = this.current();
    if (outage?.kind === 'unknown') return { kind: 'unknown' };
    if (outage?.kind === 'timeout') return { kind: 'delay', delayMs: outage.delayMs ?? 15_000 };
    return this.queue.shift();
  }
}

const isCreate = (method: string, url: string) => method === 'POST' && url.startsWith('/v5/order/create');

/**
 * An outage strikes before the route (a new order under `timeout` or `unknown` is carried out, and
 * its answer spoiled in the route, bybit-order-routes.ts).
 */
export const enforceBybitFaults = (app: FastifyInstance, exchange: SandboxExchange, faults: BybitFaults) => {
  app.addHook('preHandler', async (request, reply) => {
    if (!request.url.startsWith('/v5/')) return;
    const outage = faults.current();
    if (!outage) return;
    if (outage.kind === 'status') {
      return reply
        .status(outage.status)
        .type('text/plain')
        .send(STATUS_TEXT[outage.status] ?? 'Error');
    }
    if (outage.kind === 'error') {
      const refusal = bybitError('10016');
      return reply
        .status(refusal.httpStatus)
        .type('application/json')
        .send(JSON.stringify(envelope(refusal.retCode, refusal.retMsg, {}, exchange.now())));
    }
    if (outage.kind === 'timeout' && !isCreate(request.method, request.url)) {
      await sleep(outage.delayMs ?? 15_000);
    }
  });
};
