import type { JobInfo } from '@gridbot/jobs';
import type { ServiceContext } from '@gridbot/services';

/**
 * The service context one job runs with: the process's, with a logger whose every line names the
 * job (`job`: queue name, `jobId`: this run, `jobKey`: the enqueuer's id when it gave one), so the
 * lines of one run, or of every run for one coin bot, can be found together (docs/operations.md#logs).
 */
export const jobContext = (ctx: ServiceContext, job: JobInfo): ServiceContext => ({
  ...ctx,
  log: ctx.log.child(
    job.key ? { job: job.name, jobId: job.id, jobKey: job.key } : { job: job.name, jobId: job.id },
  ),
});
