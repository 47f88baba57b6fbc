import { setTimeout as sleep } from 'node:timers/promises';
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

type Pending = {
  /** The enqueuer's jobId, which drops waiting duplicates (none: not deduplicated). */
  id: string | undefined;
  /** The run's own id, a number of this process (what BullMQ's job id is there). */
  runId: string;
  payload: unknown;
  runAt: number;
  low: boolean;
};
type Lane = {
  handler?: JobHandler<JobDefinition>;
  concurrency: number;
  running: number;
  waiting: Pending[];
  /** Nothing is taken before this (epoch ms): JobQueue.hold. */
  heldUntil: number;
  /** Wakes the lane when its earliest delayed job is due. */
  timer?: NodeJS.Timeout;
  timerAt?: number;
};

const statsOf = (queue: string, lane: Lane | undefined): QueueStats => {
  const now = Date.now();
  let waiting = 0;
  let firstDue = now;
  for (const p of lane?.waiting ?? []) {
    if (p.runAt > now) continue;
    waiting += 1;
    firstDue = Math.min(firstDue, p.runAt);
  }
  return {
    queue,
    waiting,
    active: lane?.running ?? 0,
    delayed: (lane?.waiting.length ?? 0) - waiting,
    oldestWaitingMs: now - firstDue,
  };
};

/**
 * The embedded transport: same definitions and semantics as BullMQ (payload validated on enqueue,
 * waiting duplicates by jobId dropped, per-job-type concurrency), state in memory.
 */
export const createInProcessQueue = (
  onError: (error: unknown, job: string, jobId: string) => void = () => undefined,
): JobQueue => {
  const lanes = new Map<string, Lane>();
  let closed = false;
  let sequence = 0;

  const laneOf = (name: string): Lane => {
    let lane = lanes.get(name);
    if (!lane) {
      lane = { concurrency: 1, running: 0, waiting: [], heldUntil: 0 };
      lanes.set(name, lane);
    }
    return lane;
  };

  const pump = (name: string) => {
    const lane = laneOf(name);
    if (!lane.handler || closed) return;
    const now = Date.now();
    if (lane.heldUntil > now) {
      wakeLater(name, lane, now);
      return;
    }
    while (lane.running < lane.concurrency) {
      // As BullMQ: a low job only when no other is due.
      let index = lane.waiting.findIndex((p) => p.runAt <= now && !p.low);
      if (index < 0) index = lane.waiting.findIndex((p) => p.runAt <= now);
      if (index < 0) break;
      const [next] = lane.waiting.splice(index, 1);
      if (!next) break;
      lane.running += 1;
      const handler = lane.handler;
      void handler(next.payload as never, { name, id: next.runId, ...(next.id ? { key: next.id } : {}) })
        .catch((error: unknown) => onError(error, name, next.runId))
        .finally(() => {
          lane.running -= 1;
          pump(name);
        });
    }
    wakeLater(name, lane, now);
  };

  // Timers may fire a little before Date.now() reaches the due time: always re-arm for the
  // earliest job still waiting, so a delayed job can never be left behind.
  // Jobs already due wait for a free slot (a finishing job pumps again); only later ones need a timer.
  const wakeLater = (name: string, lane: Lane, now: number) => {
    const held = lane.heldUntil > now && lane.waiting.length > 0;
    const due = lane.waiting.reduce(
      (min, p) => (p.runAt > now ? Math.min(min, p.runAt) : min),
      held ? lane.heldUntil : Number.POSITIVE_INFINITY,
    );
    if (!Number.isFinite(due) || closed) return;
    if (lane.timer && lane.timerAt !== undefined && lane.timerAt <= due) return;
    if (lane.timer) clearTimeout(lane.timer);
    lane.timerAt = due;
    lane.timer = setTimeout(
      () => {
        lane.timer = undefined;
        lane.timerAt = undefined;
        pump(name);
      },
      Math.max(1, due - Date.now() + 1),
    );
  };

  const add = (job: JobDefinition, payload: unknown, options: EnqueueOptions = {}) => {
    if (closed) return;
    const name = queueNameOf(job);
    const parsed = job.payload.parse(payload);
    const lane = laneOf(name);
    if (options.jobId && lane.waiting.some((p) => p.id === options.jobId)) return;
    sequence += 1;
    lane.waiting.push({
      id: options.jobId,
      runId: String(sequence),
      payload: parsed,
      runAt: Date.now() + (options.delayMs ?? 0),
      low: options.low === true,
    });
    pump(name);
  };

  return {
    kind: 'in-process',
    enqueue: async <J extends JobDefinition>(job: J, payload: PayloadOf<J>, options?: EnqueueOptions) => {
      add(job, payload, options);
    },
    enqueueMany: async (job, items) => {
      for (const item of items) add(job, item.payload, item.options);
    },
    process: <J extends JobDefinition>(job: J, handler: JobHandler<J>, options: ProcessOptions = {}) => {
      const lane = laneOf(queueNameOf(job));
      lane.handler = handler as JobHandler<JobDefinition>;
      lane.concurrency = options.concurrency ?? 1;
      pump(queueNameOf(job));
    },
    hold: (job, until) => {
      const lane = laneOf(queueNameOf(job));
      lane.heldUntil = Math.max(lane.heldUntil, until);
    },
    ping: async () => {
      if (closed) throw new Error('queue closed');
    },
    stats: async (jobs) => jobs.map((job) => statsOf(queueNameOf(job), lanes.get(queueNameOf(job)))),
    drain: async (timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      while ([...lanes.values()].some((l) => l.running > 0 || (l.handler && l.waiting.length > 0))) {
        if (Date.now() > deadline) throw new Error('queue did not drain in time');
        await sleep(5);
      }
    },
    close: async () => {
      closed = true;
      for (const lane of lanes.values()) if (lane.timer) clearTimeout(lane.timer);
      while ([...lanes.values()].some((l) => l.running > 0)) await sleep(5);
    },
  };
};
