import type { QueueStats } from '@gridbot/metrics';
import type { z } from 'zod';

export type { QueueStats };

/**
 * A background job type (Documenso-style): a versioned name and the payload schema. Handlers live
 * elsewhere (apps/worker); producers (API, bot, worker) only need the definition.
 */
export type JobDefinition<P extends z.ZodType = z.ZodType> = {
  name: string;
  version: number;
  payload: P;
};

export const defineJob = <const P extends z.ZodType>(definition: JobDefinition<P>): JobDefinition<P> =>
  definition;

export type PayloadOf<J extends JobDefinition> = z.output<J['payload']>;

export type EnqueueOptions = {
  /**
   * Jobs with the same id that are still waiting are not added twice; one added while a job with
   * the id runs is kept (as one) to run after it, so no trigger is lost.
   */
  jobId?: string;
  delayMs?: number;
  /**
   * Runs only when no due job without it waits (catch-up work, e.g. the reconciles after a stream
   * resumed: the triggers of fills and user actions go first).
   */
  low?: boolean;
};

/**
 * Which job a handler runs, for its log lines (docs/operations.md#logs): the queue name, the run's
 * own id (BullMQ's job id; in process a number), and the enqueuer's `jobId` when it gave one
 * (`reconcile-42`: the same for every run of one coin bot's trigger).
 */
export type JobInfo = { name: string; id: string; key?: string };

export type JobHandler<J extends JobDefinition> = (payload: PayloadOf<J>, job: JobInfo) => Promise<void>;

export type ProcessOptions = { concurrency?: number };

/** One interface, two transports: BullMQ on Redis (distributed) or in process (embedded). */
export type JobQueue = {
  readonly kind: 'bullmq' | 'in-process';
  enqueue: <J extends JobDefinition>(
    job: J,
    payload: PayloadOf<J>,
    options?: EnqueueOptions,
  ) => Promise<void>;
  /** Enqueue many at once (one round trip on Redis). */
  enqueueMany: <J extends JobDefinition>(
    job: J,
    items: { payload: PayloadOf<J>; options?: EnqueueOptions }[],
  ) => Promise<void>;
  process: <J extends JobDefinition>(job: J, handler: JobHandler<J>, options?: ProcessOptions) => void;
  /**
   * This process takes no job of this type before `until` (epoch ms); the running ones go on, and
   * other processes keep taking them. A worker whose egress IP the venue closed holds its exchange
   * work, so the jobs go to workers on other IPs (docs/grid.md#request-budget). A later `until`
   * extends the hold.
   */
  hold: (job: JobDefinition, until: number) => void;
  /** Resolves when the transport can take and hand out jobs (Redis answering); throws otherwise. */
  ping: () => Promise<void>;
  /** Depth and oldest waiting job of these job types' queues. */
  stats: (jobs: readonly JobDefinition[]) => Promise<QueueStats[]>;
  /** Resolves when nothing is queued or running (in-process; BullMQ: waiting + active counts are 0). */
  drain: (timeoutMs?: number) => Promise<void>;
  /**
   * Stops taking jobs, lets the running ones finish (BullMQ: `worker.close()`; a job still running
   * at the process's stop deadline is taken up again by another worker once its lock expires), then
   * closes the connections.
   */
  close: () => Promise<void>;
};

export const queueNameOf = (job: JobDefinition) => `${job.name}.v${job.version}`;
