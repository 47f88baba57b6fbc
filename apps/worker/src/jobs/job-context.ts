import type { JobInfo } from '@gridbot/jobs';
import type { ServiceContext } from '@gridbot/services';

/**
 * The service context one job runs with: the process's, with a logger whose every line names the
 * job (`job`: queue name, `jobId`), so the lines of one run can be found together
 * (docs/operations.md#logs).
 */
export const jobContext = (ctx: ServiceContext, job: JobInfo): ServiceContext => ({
  ...ctx,
  log: ctx.log.child({ job: job.name, jobId: job.id }),
});
