import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestShape } from '@gridbot/venues';
import type { RequestPriority } from './venue-budget';

const current = new AsyncLocalStorage<RequestPriority>();

/**
 * Runs `work` with every exchange request it makes at `priority` (docs/grid.md#request-budget):
 * the job transports set it from why the work runs (a sweep is low, a fill from the order stream
 * high), so no service has to pass it down. Requests outside any such call are `normal`.
 */
export const withRequestPriority = <T>(priority: RequestPriority, work: () => Promise<T>): Promise<T> =>
  current.run(priority, work);

export const currentRequestPriority = (): RequestPriority => current.getStore() ?? 'normal';

/** An order's placement on each venue: Binance `POST /api/v3/order`, Bybit `/v5/order/create`, OKX `/api/v5/trade/order` and `/batch-orders`. */
const PLACEMENT = /\/order$|\/order\/create$|\/trade\/batch-orders$/;
/** A cancel: Binance `DELETE /api/v3/order`, Bybit `POST /v5/order/cancel`, OKX `POST /api/v5/trade/cancel-order`. */
const CANCEL = /\/order\/cancel$|\/trade\/cancel-order$/;

/** The side of an order request: a parameter, or the first order of a JSON list (OKX's batch). */
const sideOf = (request: RequestShape): string | undefined => {
  const side = request.params.get('side');
  if (side) return side;
  const first: unknown = Array.isArray(request.body) ? request.body[0] : undefined;
  const fromBody =
    typeof first === 'object' && first !== null ? (first as { side?: unknown }).side : undefined;
  return typeof fromBody === 'string' ? fromBody : undefined;
};

/**
 * A request's own priority, from what it is and the work it belongs to: a cancel and a sell (the
 * grid's sells are take profits) always go first, a buy never above `normal`, anything else
 * (reads) at the work's priority.
 */
export const priorityOfRequest = (request: RequestShape, work: RequestPriority): RequestPriority => {
  const method = request.method.toUpperCase();
  // The order stream's subscription: without it fills are only seen by scans.
  if (method === 'WS') return 'high';
  if (method === 'DELETE' && /\/order$/.test(request.path)) return 'high';
  if (method !== 'POST') return work;
  if (CANCEL.test(request.path)) return 'high';
  if (!PLACEMENT.test(request.path)) return work;
  if (sideOf(request)?.toUpperCase() === 'SELL') return 'high';
  return work === 'high' ? 'normal' : work;
};
