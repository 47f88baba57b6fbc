import type { z } from 'zod';

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
};

export type JobHandler<J extends JobDefinition> = (payload: PayloadOf<J>) => Promise<void>;

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
  /** Resolves when nothing is queued or running (in-process; BullMQ: waiting + active counts are 0). */
  drain: (timeoutMs?: number) => Promise<void>;
  close: () => Promise<void>;
};

export const queueNameOf = (job: JobDefinition) => `${job.name}.v${job.version}`;
