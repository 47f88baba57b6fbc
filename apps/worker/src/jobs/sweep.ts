import { sweepCoinBotsJob } from '@gridbot/jobs';
import { type ServiceContext, sweepCoinBots } from '@gridbot/services';
import { jobContext } from './job-context';

/** The sweep job's transport (the query is the service's; docs/grid.md#triggers). */
export const registerSweep = (ctx: ServiceContext) => {
  ctx.queue.process(sweepCoinBotsJob, async (payload, job) => {
    await sweepCoinBots(jobContext(ctx, job), payload);
  });
};
