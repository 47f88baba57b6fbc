import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { envelope, okxError } from './okx-error';

/**
 * A while in which the OKX dialect misbehaves as OKX does in an incident, for its own endpoints only
 * (as bybit-faults.ts for the Bybit dialect; the Binance dialect's outages are control.startOutage):
 * - `status`: every `/api/v5/` call answers that HTTP status (5xx) and does nothing (a gateway
 *   failure carries no OKX code);
 * - `error`: every `/api/v5/` call answers 50026 "System error. Try again later" (HTTP 500) and
 *   does nothing;
 * - `throttled`: every `/api/v5/` call answers 50011 (HTTP 429, the words of OKX's error table) and
 *   does nothing — a burst of rate-limit refusals whatever the pools' counts;
 * - `timeout`: every `/api/v5/` call is answered `delayMs` late (a new order is placed first);
 * - `unknown`: every new order is placed and answered 50004 "API endpoint request timeout",
 *   which OKX says does not tell whether the request succeeded.
 * 50004 and 50026 are the table's `unknown` outcomes; 50011 its `throttled`. docs/venues/okx.md#errors,
 * #bans
 */
export type OkxOutage =
  | { kind: 'status'; status: 500 | 502 | 503 | 504; forMs: number }
  | { kind: 'error' | 'throttled' | 'unknown'; forMs: number }
  | { kind: 'timeout'; forMs: number; delayMs?: number };

/** How the answer to the next placement (`POST /api/v5/trade/order` or `/batch-orders`) goes wrong after the order was placed. */
export type OkxOrderFault = { kind: 'drop' } | { kind: 'delay'; delayMs: number } | { kind: 'unknown' };

const STATUS_TEXT: Record<number, string> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export class OkxFaults {
  private outage: (OkxOutage & { until: number }) | undefined;
  private readonly queue: OkxOrderFault[] = [];

  startOutage(outage: OkxOutage): void {
    this.outage = { ...outage, until: Date.now() + outage.forMs };
  }

  failNextOrderResponse(fault: OkxOrderFault): void {
    this.queue.push(fault);
  }

  /** No outage, no queued fault. */
  reset(): void {
    this.outage = undefined;
    this.queue.length = 0;
  }

  current(): OkxOutage | undefined {
    if (this.outage && this.outage.until <= Date.now()) this.outage = undefined;
    return this.outage;
  }

  /** The fault of the order just placed: the outage's, else the next queued one. */
  takeOrderFault(): OkxOrderFault | undefined {
    const outage = this.current();
    if (outage?.kind === 'unknown') return { kind: 'unknown' };
    if (outage?.kind === 'timeout') return { kind: 'delay', delayMs: outage.delayMs ?? 15_000 };
    return this.queue.shift();
  }
}

const PLACEMENTS = new Set(['/api/v5/trade/order', '/api/v5/trade/batch-orders']);

const isPlacement = (method: string, url: string) =>
  method === 'POST' && PLACEMENTS.has(url.split('?')[0] ?? '');

/**
 * An outage strikes before the route (a new order under `timeout` or `unknown` is placed, and its
 * answer spoiled in the route, okx-order-routes.ts).
 */
export const enforceOkxFaults = (app: FastifyInstance, faults: OkxFaults): void => {
  app.addHook('preHandler', async (request, reply) => {
    if (!request.url.startsWith('/api/v5/')) return;
    const outage = faults.current();
    if (!outage) return;
    if (outage.kind === 'status') {
      return reply
        .status(outage.status)
        .type('text/plain')
        .send(STATUS_TEXT[outage.status] ?? 'Error');
    }
    if (outage.kind === 'error' || outage.kind === 'throttled') {
      const refusal = okxError(outage.kind === 'error' ? '50026' : '50011');
      return reply
        .status(refusal.httpStatus)
        .type('application/json')
        .send(JSON.stringify(envelope(refusal.code, refusal.msg, [])));
    }
    if (outage.kind === 'timeout' && !isPlacement(request.method, request.url)) {
      await sleep(outage.delayMs ?? 15_000);
    }
  });
};
