import { venueWaitOf, withRequestPriority } from '@gridbot/exchange';
import { reconcileCoinBotJob, scanPricesJob } from '@gridbot/jobs';
import { type ServiceContext, scanVenuePrices } from '@gridbot/services';
import { jobContext } from './job-context';

/**
 * The price-scan job's transport (the scan is the service's; docs/grid.md#triggers). Scans are the
 * lowest priority of the request budget: a tick that finds no room is skipped (the next tick comes
 * within seconds); one that finds the IP closed also holds this worker's exchange work.
 */
export const registerScanPrices = (ctx: ServiceContext) => {
  ctx.queue.process(scanPricesJob, async (payload, job) => {
    const run = jobContext(ctx, job);
    try {
      await withRequestPriority('low', () => scanVenuePrices(run, payload));
    } catch (error) {
      const wait = venueWaitOf(error);
      if (!wait) throw error;
      if (wait.scope === 'ip' && wait.reason === 'closed') {
        ctx.queue.hold(scanPricesJob, wait.resumeAt);
        ctx.queue.hold(reconcileCoinBotJob, wait.resumeAt);
      }
      run.log.debug({ venue: payload.venue, ...wait }, 'price scan skipped: no request budget');
    }
  });
};
