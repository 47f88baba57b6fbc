import { reconcileCoinBotJob, reconcileJobId } from '@gridbot/jobs';
import type { ServiceContext } from '../context/service-context';

const SWEEP_BATCH = 2000;

/**
 * The slow safety net (docs/grid.md#triggers): coin bots that run, or still have resting orders or
 * a pending deal command, and were not reconciled for a while, oldest first. Catches fills the price scan missed and
 * restarts. Returns how many reconciles it enqueued.
 */
export const sweepCoinBots = async (
  ctx: ServiceContext,
  input: { olderThanMs: number },
): Promise<{ enqueued: number }> => {
  const before = new Date(ctx.clock.now().getTime() - input.olderThanMs);
  const due = await ctx.prisma.coinBot.findMany({
    where: {
      OR: [
        { running: true },
        { orders: { some: { status: { in: ['pending', 'open'] } } } },
        // A paused coin's deal command whose reconcile was never queued (docs/grid.md#deal-controls).
        { dealCommands: { some: { status: 'pending' } } },
      ],
      AND: [{ OR: [{ reconciledAt: null }, { reconciledAt: { lt: before } }] }],
    },
    select: { id: true },
    orderBy: { reconciledAt: { sort: 'asc', nulls: 'first' } },
    take: SWEEP_BATCH,
  });
  await ctx.queue.enqueueMany(
    reconcileCoinBotJob,
    due.map(({ id }) => ({
      payload: { coinBotId: id, reason: 'sweep' },
      options: { jobId: reconcileJobId(id) },
    })),
  );
  return { enqueued: due.length };
};
