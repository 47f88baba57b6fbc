import {
  keyExpiryNoticesJob,
  licenseNoticesJob,
  payMatchingBonusesJob,
  payNetworkExpansionJob,
} from '@gridbot/jobs';
import {
  payMatchingBonuses,
  payNetworkExpansionBonuses,
  queueKeyExpiryNotices,
  queueLicenseNotices,
  type ServiceContext,
} from '@gridbot/services';
import { jobContext } from './job-context';

/** The bonus, licence and key-expiry jobs' transport (the rules are the services'; docs/bonuses.md). */
export const registerBonusJobs = (ctx: ServiceContext) => {
  ctx.queue.process(payMatchingBonusesJob, async (_payload, job) => {
    await payMatchingBonuses(jobContext(ctx, job));
  });
  ctx.queue.process(payNetworkExpansionJob, async (payload, job) => {
    await payNetworkExpansionBonuses(jobContext(ctx, job), payload.month ? { month: payload.month } : {});
  });
  ctx.queue.process(licenseNoticesJob, async (_payload, job) => {
    await queueLicenseNotices(jobContext(ctx, job));
  });
  ctx.queue.process(keyExpiryNoticesJob, async (_payload, job) => {
    await queueKeyExpiryNotices(jobContext(ctx, job));
  });
};

/**
 * Enqueues the jobs of this schedule tick. The job ids carry the tick, so many replicas
 * enqueue one of each per tick; the services pay each day / month once whatever runs them.
 */
export const enqueueBonusJobs = async (ctx: ServiceContext, intervalMs: number): Promise<void> => {
  const tick = Math.floor(ctx.clock.now().getTime() / intervalMs);
  await ctx.queue.enqueue(payMatchingBonusesJob, {}, { jobId: `matching-payout-${tick}` });
  await ctx.queue.enqueue(payNetworkExpansionJob, {}, { jobId: `network-expansion-${tick}` });
  await ctx.queue.enqueue(licenseNoticesJob, {}, { jobId: `license-notices-${tick}` });
  await ctx.queue.enqueue(keyExpiryNoticesJob, {}, { jobId: `key-expiry-notices-${tick}` });
};
