import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createBullQueue, createInProcessQueue, defineJob, type JobQueue } from '../src';

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

  it('refuses an invalid payload at enqueue', async () => {
    queue = make();
    await expect(queue.enqueue(echo, { n: 1.5 })).rejects.toThrow();
  });
});
