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

/**
 * A request's own priority, from what it is and the work it belongs to: a cancel and a sell (the
 * grid's sells are take profits) always go first, a buy never above `normal`, anything else
 * (reads) at the work's priority.
 */
export const priorityOfRequest = (request: RequestShape, work: RequestPriority): RequestPriority => {
  const method = request.method.toUpperCase();
  // The order stream's subscription: without it fills are only seen by scans.
  if (method === 'WS') return 'high';
  if (!/\/order$/.test(request.path)) return work;
  if (method === 'DELETE') return 'high';
  if (method !== 'POST') return work;
  if (request.params.get('side')?.toUpperCase() === 'SELL') return 'high';
  return work === 'high' ? 'normal' : work;
};
