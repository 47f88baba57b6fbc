import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createBullQueue,
  createInProcessQueue,
  defineJob,
  type JobInfo,
  type JobQueue,
  queueNameOf,
} from '../src';

const echo = defineJob({ name: 'test.echo', version: 1, payload: z.object({ n: z.number().int() }) });

const transports: [string, () => JobQueue][] = [['in-process', () => createInProcessQueue()]];
if (process.env.REDIS_URL) {
  const url = process.env.REDIS_URL;
  transports.push([
    'bullmq',
    () => createBullQueue({ redisUrl: url, prefix: `test-${randomBytes(4).toString('hex')}` }),
  ]);
}

let queue: JobQueue | undefined;
afterEach(async () => {
  await queue?.close();
  queue = undefined;
});

describe.each(transports)('%s queue', (_name, make) => {
  it('runs every job once with its validated payload', async () => {
    queue = make();
    const seen: number[] = [];
    queue.process(
      echo,
      async ({ n }) => {
        seen.push(n);
      },
      { concurrency: 2 },
    );
    await queue.enqueueMany(
      echo,
      [1, 2, 3].map((n) => ({ payload: { n } })),
    );
    await queue.enqueue(echo, { n: 4 });
    await queue.drain();
    expect(seen.sort()).toEqual([1, 2, 3, 4]);
  });

  it('drops a waiting duplicate with the same job id', async () => {
    queue = make();
    const seen: number[] = [];
    await queue.enqueue(echo, { n: 1 }, { jobId: 'same' });
    await queue.enqueue(echo, { n: 2 }, { jobId: 'same' });
    queue.process(echo, async ({ n }) => {
      seen.push(n);
    });
    await queue.drain();
    expect(seen).toEqual([1]);
  });

  it('runs a job again when its id is enqueued while that job is running', async () => {
    // A trigger that arrives while its coin bot's reconcile is already running (a user presses
    // start while the reconcile of their settings edit runs) must not be swallowed: the running job
    // read the state before the change.
    queue = make();
    const seen: number[] = [];
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    queue.process(echo, async ({ n }) => {
      seen.push(n);
      if (n === 1) {
        started();
        await released;
      }
    });
    await queue.enqueue(echo, { n: 1 }, { jobId: 'busy' });
    await running;
    await queue.enqueueMany(echo, [{ payload: { n: 2 }, options: { jobId: 'busy' } }]);
    await queue.enqueue(echo, { n: 3 }, { jobId: 'busy' });
    release();
    await queue.drain(10_000);
    // Once more after the running one; the two triggers that came meanwhile wait as one (BullMQ
    // keeps the later payload, the in-process queue the earlier: both are triggers after the run).
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(1);
    expect([2, 3]).toContain(seen[1]);
  });

  it('runs delayed jobs, also when many are delayed at once', async () => {
    queue = make();
    const seen: number[] = [];
    queue.process(
      echo,
      async ({ n }) => {
        seen.push(n);
      },
      { concurrency: 2 },
    );
    for (let n = 0; n < 20; n += 1) await queue.enqueue(echo, { n }, { delayMs: 5 + (n % 7) * 3 });
    await queue.drain(10_000);
    expect(seen).toHaveLength(20);
  });

  it('runs a low job only when no other job waits (catch-up reconciles after the triggers)', async () => {
    queue = make();
    const seen: number[] = [];
    // Enqueued before anyone processes: the low ones first, the others after.
    await queue.enqueueMany(
      echo,
      [1, 2, 3].map((n) => ({ payload: { n }, options: { low: true } })),
    );
    await queue.enqueueMany(
      echo,
      [4, 5].map((n) => ({ payload: { n } })),
    );
    queue.process(echo, async ({ n }) => {
      seen.push(n);
    });
    await queue.drain(10_000);
    expect(seen.slice(0, 2).sort()).toEqual([4, 5]);
    expect(seen.slice(2).sort()).toEqual([1, 2, 3]);
  });

  it('refuses an invalid payload at enqueue', async () => {
    queue = make();
    await expect(queue.enqueue(echo, { n: 1.5 })).rejects.toThrow();
  });

  it('hands each handler its job name and id (for its log lines)', async () => {
    queue = make();
    const seen: JobInfo[] = [];
    queue.process(echo, async (_payload, job) => {
      seen.push(job);
    });
    await queue.enqueue(echo, { n: 1 }, { jobId: 'echo-1' });
    await queue.drain();
    expect(seen).toEqual([{ name: queueNameOf(echo), id: expect.any(String), key: 'echo-1' }]);
    expect(seen[0]!.id).not.toBe('');
  });

  it('reports its depth by state and answers a ping', async () => {
    queue = make();
    await queue.ping();
    await queue.enqueueMany(
      echo,
      [1, 2, 3].map((n) => ({ payload: { n } })),
    );
    await queue.enqueue(echo, { n: 4 }, { delayMs: 60_000 });
    const [stats] = await queue.stats([echo]);
    expect(stats).toMatchObject({ queue: queueNameOf(echo), waiting: 3, active: 0, delayed: 1 });
    expect(stats!.oldestWaitingMs).toBeGreaterThanOrEqual(0);
    expect(stats!.oldestWaitingMs).toBeLessThan(60_000);
  });

  it('close lets the running job finish before it resolves (docs/operations.md#shutdown)', async () => {
    queue = make();
    let started = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let finish = () => {};
    let finished = false;
    queue.process(echo, async () => {
      started();
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
      finished = true;
    });
    await queue.enqueue(echo, { n: 1 });
    await running;
    let closed = false;
    const closing = queue.close().then(() => {
      closed = true;
    });
    queue = undefined;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(false);
    finish();
    await closing;
    expect(finished).toBe(true);
  });
});
