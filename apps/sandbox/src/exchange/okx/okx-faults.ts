import type { FastifyInstance } from 'fastify';
import { DialectFaults, enforceDialectFaults } from '../dialect-faults';
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
 * The next-order faults spoil the answer to the next placement (`POST /api/v5/trade/order` or
 * `/batch-orders`) after the order was placed.
 */
export type OkxFaults = DialectFaults<'error' | 'throttled'>;

export const okxFaults = (): OkxFaults => new DialectFaults(['error', 'throttled']);

const PLACEMENTS = new Set(['/api/v5/trade/order', '/api/v5/trade/batch-orders']);

const isPlacement = (method: string, url: string) =>
  method === 'POST' && PLACEMENTS.has(url.split('?')[0] ?? '');

/** OKX's outages on the wire (a placement's spoiled answer is okx-order-routes.ts's). */
export const enforceOkxFaults = (app: FastifyInstance, faults: OkxFaults): void =>
  enforceDialectFaults(app, faults, {
    apiPrefix: '/api/v5/',
    isPlacement,
    refusal: (kind) => {
      const refusal = okxError(kind === 'error' ? '50026' : '50011');
      return { httpStatus: refusal.httpStatus, body: envelope(refusal.code, refusal.msg, []) };
    },
  });
