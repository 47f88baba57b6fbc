import type { FastifyInstance } from 'fastify';
import { DialectFaults, enforceDialectFaults } from '../dialect-faults';
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
 * The next-order faults spoil the answer to `POST /v5/order/create` after the order was placed.
 */
export type BybitFaults = DialectFaults<'error'>;

export const bybitFaults = (): BybitFaults => new DialectFaults(['error']);

const isCreate = (method: string, url: string) => method === 'POST' && url.startsWith('/v5/order/create');

/** Bybit's outages on the wire (a new order's spoiled answer is bybit-order-routes.ts's). */
export const enforceBybitFaults = (app: FastifyInstance, exchange: SandboxExchange, faults: BybitFaults) =>
  enforceDialectFaults(app, faults, {
    apiPrefix: '/v5/',
    isPlacement: isCreate,
    refusal: () => {
      const refusal = bybitError('10016');
      return {
        httpStatus: refusal.httpStatus,
        body: envelope(refusal.retCode, refusal.retMsg, {}, exchange.now()),
      };
    },
  });
