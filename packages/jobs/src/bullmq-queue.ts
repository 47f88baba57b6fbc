import { setTimeout as sleep } from 'node:timers/promises';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type {
  EnqueueOptions,
  JobDefinition,
  JobHandler,
  JobQueue,
  PayloadOf,
  ProcessOptions,
  QueueStats,
} from './define-job';
import { queueNameOf } from './define-job';

export type BullQueueOptions = {
  redisUrl: string;
  /** Key prefix (tests isolate themselves with their own). */
  prefix?: string;
  /** A job that failed: its queue name and id (handlers that never fail report nothing). */
  onError?: (error: unknown, job: string, jobId: string) => void;
};

/** Depth by state and the age of the oldest waiting job (the head of the wait list). */
const statsOf = async (queue: Queue): Promise<QueueStats> => {
  const [counts, [oldest]] = await Promise.all([
    queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed'),
    queue.getWaiting(0, 0),
  ]);
  // A delayed job waits from when it became due, not from when it was added.
  const dueAt = oldest ? oldest.timestamp + (oldest.opts.delay ?? 0) : undefined;
  return {
    queue: queue.name,
    waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
    active: counts.active ?? 0,
    delayed: counts.delayed ?? 0,
    oldestWaitingMs: dueAt === undefined ? 0 : Math.max(0, Date.now() - dueAt),
  };
};

/** The distributed transport: one BullMQ queue per job type, any number of worker processes. */
export const createBullQueue = (options: BullQueueOptions): JobQueue => {
  const prefix = options.prefix ?? 'gridbot';
  const connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const queues = new Map<string, Queue>();
  const workers: Worker[] = [];
  const workerOf = new Map<string, Worker>();
  const holds = new Map<string, { until: number; timer: NodeJS.Timeout }>();

  const queueOf = (job: JobDefinition) => {
    const name = queueNameOf(job);
    let queue = queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection, prefix });
      queues.set(name, queue);
    }
    return queue;
  };

  // A job id deduplicates through BullMQ's deduplication, not its job id: an add whose job id is
  // held by a *running* job is ignored by BullMQ, which would swallow a trigger that came after
  // the running job read its state (a start pressed while the settings edit's reconcile runs).
  // keepLastIfActive keeps such a trigger as one job that runs after it, as the in-process queue
  // does (define-job.ts: only waiting duplicates are dropped).
  const jobOptions = (o: EnqueueOptions = {}) => ({
    ...(o.jobId ? { deduplication: { id: o.jobId, keepLastIfActive: true } } : {}),
    ...(o.delayMs ? { delay: o.delayMs } : {}),
    // BullMQ takes a prioritized job only when its wait list (jobs without priority) is empty.
    ...(o.low ? { priority: 10 } : {}),
    removeOnComplete: true,
    // A kept failed job would keep its id and make BullMQ ignore every later add() with it.
    removeOnFail: true,
  });

  return {
    kind: 'bullmq',
    enqueue: async <J extends JobDefinition>(job: J, payload: PayloadOf<J>, o?: EnqueueOptions) => {
      await queueOf(job).add(job.name, job.payload.parse(payload), jobOptions(o));
    },
    enqueueMany: async (job, items) => {
      if (items.length === 0) return;
      await queueOf(job).addBulk(
        items.map((item) => ({
          name: job.name,
          data: job.payload.parse(item.payload),
          opts: jobOptions(item.options),
        })),
      );
    },
    process: <J extends JobDefinition>(job: J, handler: JobHandler<J>, o: ProcessOptions = {}) => {
      const worker = new Worker(
        queueNameOf(job),
        async (bullJob) =>
          handler(job.payload.parse(bullJob.data) as PayloadOf<J>, {
            name: queueNameOf(job),
            id: bullJob.id ?? '',
            ...(bullJob.opts.deduplication?.id ? { key: bullJob.opts.deduplication.id } : {}),
          }),
        {
          connection: new Redis(options.redisUrl, { maxRetriesPerRequest: null }),
          prefix,
          concurrency: o.concurrency ?? 1,
        },
      );
      worker.on('failed', (bullJob, error) => options.onError?.(error, queueNameOf(job), bullJob?.id ?? ''));
      workers.push(worker);
      workerOf.set(queueNameOf(job), worker);
    },
    hold: (job, until) => {
      const name = queueNameOf(job);
      const worker = workerOf.get(name);
      const current = holds.get(name);
      if (!worker || (current && current.until >= until)) return;
      if (current) clearTimeout(current.timer);
      // Not waiting for the active jobs: the hold is asked for from inside one of them.
      if (!current) void worker.pause(true);
      const timer = setTimeout(
        () => {
          holds.delete(name);
          void worker.resume();
        },
        Math.max(0, until - Date.now()),
      );
      holds.set(name, { until, timer });
    },
    ping: async () => {
      // A lost or closed connection answers nothing: say so at once rather than queue a PING (one
      // still making its first connection gets the PING once it is up, within the probe's timeout).
      if (['reconnecting', 'close', 'end'].includes(connection.status)) {
        throw new Error(`redis ${connection.status}`);
      }
      await connection.ping();
    },
    stats: (jobs) => Promise.all(jobs.map((job) => statsOf(queueOf(job)))),
    drain: async (timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const counts = await Promise.all(
          [...queues.values()].map((q) => q.getJobCounts('waiting', 'active', 'delayed', 'prioritized')),
        );
        const busy = counts.some((c) => Object.values(c).some((n) => n > 0));
        if (!busy) return;
        if (Date.now() > deadline) throw new Error('queue did not drain in time');
        await sleep(20);
      }
    },
    close: async () => {
      for (const { timer } of holds.values()) clearTimeout(timer);
      await Promise.all(workers.map((w) => w.close()));
      await Promise.all([...queues.values()].map((q) => q.close()));
      await Promise.all(workers.map((w) => w.disconnect()));
      connection.disconnect();
    },
  };
};
