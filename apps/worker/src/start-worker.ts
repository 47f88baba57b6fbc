import { sweepCoinBotsJob } from '@gridbot/jobs';
import { enqueuePriceScans, type ServiceContext } from '@gridbot/services';
import { enqueueBonusJobs, registerBonusJobs } from './jobs/bonuses';
import { registerReconcile } from './jobs/reconcile';
import { registerScanPrices } from './jobs/scan-prices';
import { registerSweep } from './jobs/sweep';
import { startOrderStreams } from './order-streams';

export type WorkerOptions = {
  ctx: ServiceContext;
  /** Process the jobs here (false: only schedule, e.g. an API-only replica). */
  process?: boolean;
  reconcileConcurrency?: number;
  scanIntervalMs?: number;
  sweepIntervalMs?: number;
  /** A coin bot not reconciled for this long is swept. */
  sweepAfterMs?: number;
  /**
   * How often the bonus and licence jobs are enqueued (default hourly; they pay each closed day /
   * ended month once and queue each licence notice once, so more often only catches up sooner).
   */
  bonusIntervalMs?: number;
  /**
   * Follow the accounts' own order updates (exchange user data streams) and reconcile on each
   * (default: when processing jobs). `orderStreamRefreshMs`: how often the set of accounts is
   * looked up again (default 30 s).
   */
  orderStreams?: boolean;
  orderStreamRefreshMs?: number;
};

const jittered = (ms: number) => Math.round(ms * (0.8 + Math.random() * 0.4));

/**
 * The grid worker: reconcile / scan / sweep job handlers and their schedule. The same code runs in
 * the embedded process (in-process queue) and as `apps/worker` replicas (BullMQ): schedules use
 * job ids so that many replicas enqueue one scan per venue and tick, not one each.
 */
export const startWorker = async (options: WorkerOptions) => {
  const { ctx } = options;
  if (options.process !== false) {
    registerReconcile(ctx, options.reconcileConcurrency ?? ctx.env.WORKER_CONCURRENCY);
    registerScanPrices(ctx);
    registerSweep(ctx);
    registerBonusJobs(ctx);
  }
  const scanEvery = options.scanIntervalMs ?? ctx.env.SCAN_INTERVAL_MS;
  const sweepEvery = options.sweepIntervalMs ?? ctx.env.SWEEP_INTERVAL_MS;
  const sweepAfter = options.sweepAfterMs ?? 60_000;
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;

  const every = (ms: () => number, tick: () => Promise<void>) => {
    const run = () => {
      if (stopped) return;
      tick()
        .catch((error: unknown) => ctx.log.warn({ err: error }, 'schedule failed'))
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
    () => enqueuePriceScans(ctx, { intervalMs: scanEvery }),
  );
  every(
    () => jittered(sweepEvery),
    async () => {
      const tick = Math.floor(ctx.clock.now().getTime() / sweepEvery);
      await ctx.queue.enqueue(sweepCoinBotsJob, { olderThanMs: sweepAfter }, { jobId: `sweep-${tick}` });
    },
  );

  const bonusEvery = options.bonusIntervalMs ?? 3_600_000;
  // Once shortly after start (a worker restarted after midnight pays yesterday at once), then per tick.
  let bonusTicks = 0;
  every(
    () => jittered(bonusTicks++ === 0 ? Math.min(bonusEvery, 30_000) : bonusEvery),
    () => enqueueBonusJobs(ctx, bonusEvery),
  );

  const streams =
    (options.orderStreams ?? options.process !== false)
      ? startOrderStreams(ctx, { refreshMs: options.orderStreamRefreshMs ?? 30_000 })
      : undefined;

  return {
    owner: ctx.instanceId,
    /** Stops scheduling and the order streams; the queue's owner drains or closes it. */
    stop: async () => {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      await streams?.stop();
    },
  };
};
