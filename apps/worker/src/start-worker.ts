import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '@gridbot/db';
import { type JobQueue, scanPricesJob, sweepCoinBotsJob } from '@gridbot/jobs';
import { type ExchangeClients, installationSalt } from '@gridbot/services';
import { registerReconcile } from './jobs/reconcile';
import { activeVenues, registerScanPrices } from './jobs/scan-prices';
import { registerSweep } from './jobs/sweep';

export type WorkerOptions = {
  prisma: PrismaClient;
  queue: JobQueue;
  clients: ExchangeClients;
  /** Process the jobs here (false: only schedule, e.g. an API-only replica). */
  process?: boolean;
  reconcileConcurrency?: number;
  scanIntervalMs?: number;
  sweepIntervalMs?: number;
  /** A coin bot not reconciled for this long is swept. */
  sweepAfterMs?: number;
  log?: (message: string) => void;
};

const jittered = (ms: number) => Math.round(ms * (0.8 + Math.random() * 0.4));

/**
 * The grid worker: reconcile / scan / sweep processors and their schedule. The same code runs in
 * the embedded process (in-process queue) and as `apps/worker` replicas (BullMQ): schedules use
 * job ids so that many replicas enqueue one scan per venue and tick, not one each.
 */
export const startWorker = async (options: WorkerOptions) => {
  const owner = `worker-${process.pid}-${randomBytes(3).toString('hex')}`;
  const log = options.log ?? (() => undefined);
  const { queue, prisma, clients } = options;
  if (options.process !== false) {
    const salt = await installationSalt(prisma);
    registerReconcile(
      queue,
      { prisma, owner, salt, clientFor: clients.forAccount },
      options.reconcileConcurrency ?? 4,
      log,
    );
    registerScanPrices(queue, prisma, clients);
    registerSweep(queue, prisma);
  }
  const scanEvery = options.scanIntervalMs ?? 2000;
  const sweepEvery = options.sweepIntervalMs ?? 30_000;
  const sweepAfter = options.sweepAfterMs ?? 60_000;
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;

  const every = (ms: () => number, tick: () => Promise<void>) => {
    const run = () => {
      if (stopped) return;
      tick()
        .catch((error: unknown) =>
          log(`schedule failed: ${error instanceof Error ? error.message : String(error)}`),
        )
        .finally(() => {
          if (stopped) return;
          const timer = setTimeout(run, ms());
          timers.add(timer);
        });
    };
    const timer = setTimeout(run, ms());
    timers.add(timer);
  };

  every(
    () => scanEvery,
    async () => {
      const bucket = Math.floor(Date.now() / scanEvery);
      // The symbols travel with the job: the scan itself does not ask the database again.
      for (const [venue, symbols] of await activeVenues(prisma)) {
        await queue.enqueue(
          scanPricesJob,
          { venue, symbols },
          { jobId: `scan-${venue.replace(':', '-')}-${bucket}` },
        );
      }
    },
  );
  every(
    () => jittered(sweepEvery),
    async () => {
      await queue.enqueue(
        sweepCoinBotsJob,
        { olderThanMs: sweepAfter },
        { jobId: `sweep-${Math.floor(Date.now() / sweepEvery)}` },
      );
    },
  );

  return {
    owner,
    stop: async () => {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
    },
  };
};
