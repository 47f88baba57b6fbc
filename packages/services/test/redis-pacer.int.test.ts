import { randomBytes } from 'node:crypto';
import { exchangeRateLimitWaitSeconds, exchangeRateLimitWaits } from '@gridbot/metrics';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisPacer } from '../src/grid/redis-pacer';

const url = process.env.REDIS_URL;
const connections: Redis[] = [];
afterAll(() => {
  for (const c of connections) c.disconnect();
});

describe.runIf(url)('Redis pacer (one API key, several worker processes)', () => {
  it('gives every request its own slot, spaced by its cost, across connections', async () => {
    const prefix = `test-${randomBytes(4).toString('hex')}:`;
    const [a, b] = [new Redis(url!), new Redis(url!)];
    connections.push(a, b);
    const workerA = createRedisPacer(a, prefix, 'binance:live:KEY1');
    const workerB = createRedisPacer(b, prefix, 'binance:live:KEY1');
    const other = createRedisPacer(b, prefix, 'binance:live:KEY2');
    const [otherStart, ...starts] = await Promise.all([
      other.pace(40),
      ...Array.from({ length: 8 }, (_, i) => (i % 2 ? workerA : workerB).pace(40)),
    ]);
    const sorted = [...starts].sort((x, y) => x - y);
    for (let i = 1; i < sorted.length; i += 1) expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThanOrEqual(40);
    // Another key has its own budget: its slot is not queued behind KEY1's.
    expect(otherStart).toBeLessThan(sorted.at(-1)!);
  });

  it('counts the requests that waited for their slot and the time they waited (docs/operations.md#metrics)', async () => {
    const total = async (counter: typeof exchangeRateLimitWaits) =>
      (await counter.get()).values[0]?.value ?? 0;
    const [waitsBefore, secondsBefore] = [
      await total(exchangeRateLimitWaits),
      await total(exchangeRateLimitWaitSeconds),
    ];
    const redis = new Redis(url!);
    connections.push(redis);
    const pacer = createRedisPacer(redis, `test-${randomBytes(4).toString('hex')}:`, 'binance:live:KEY3');
    // Five requests of 50 ms each at once: the first goes at once, the other four wait.
    await Promise.all(Array.from({ length: 5 }, () => pacer.pace(50)));
    expect(await total(exchangeRateLimitWaits)).toBeGreaterThanOrEqual(waitsBefore + 3);
    expect(await total(exchangeRateLimitWaitSeconds)).toBeGreaterThan(secondsBefore + 0.1);
  });
});
