import { scanPricesJob } from '@gridbot/jobs';
import { type ServiceContext, scanVenuePrices } from '@gridbot/services';
import { jobContext } from './job-context';

/** The price-scan job's transport (the scan is the service's; docs/grid.md#triggers). */
export const registerScanPrices = (ctx: ServiceContext) => {
  ctx.queue.process(scanPricesJob, async (payload, job) => {
    await scanVenuePrices(jobContext(ctx, job), payload);
  });
};
