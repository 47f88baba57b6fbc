import type { PrismaClient } from '@gridbot/db';
import { type JobQueue, reconcileCoinBotJob, reconcileJobId, sweepCoinBotsJob } from '@gridbot/jobs';

const SWEEP_BATCH = 2000;

/**
 * The slow safety net (DESIGN §3 trigger b): coin bots that run, or still have resting orders,
 * and were not reconciled for a while. Catches fills the price scan missed and restarts.
 */
export const registerSweep = (queue: JobQueue, prisma: PrismaClient) => {
  queue.process(sweepCoinBotsJob, async ({ olderThanMs }) => {
    const before = new Date(Date.now() - olderThanMs);
    const due = await prisma.coinBot.findMany({
      where: {
        OR: [{ running: true }, { orders: { some: { status: { in: ['pending', 'open'] } } } }],
        AND: [{ OR: [{ reconciledAt: null }, { reconciledAt: { lt: before } }] }],
      },
      select: { id: true },
      orderBy: { reconciledAt: { sort: 'asc', nulls: 'first' } },
      take: SWEEP_BATCH,
    });
    await queue.enqueueMany(
      reconcileCoinBotJob,
      due.map(({ id }) => ({
        payload: { coinBotId: id, reason: 'sweep' },
        options: { jobId: reconcileJobId(id) },
      })),
    );
  });
};
