import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, it } from 'vitest';
import { checkRollingWindows, checkVenueWindows } from '../../exchange/test/support/venue-windows';
import { createRedisBudgetStore } from '../src/grid/redis-venue-budget';

const url = process.env.REDIS_URL;
const connections: Redis[] = [];
afterAll(() => {
  for (const c of connections) c.disconnect();
});

describe.runIf(url)('the Redis budget store (every process of an installation)', () => {
  it('never lets a venue window hold more than its limit, a request in a grace charged in both windows', async () => {
    const redis = new Redis(url!);
    connections.push(redis);
    await checkVenueWindows(
      createRedisBudgetStore(redis, `test-${randomBytes(4).toString('hex')}:`),
      2000,
      10,
    );
    await checkVenueWindows(
      createRedisBudgetStore(redis, `test-${randomBytes(4).toString('hex')}:`),
      1000,
      20,
    );
  });

  it('never lets a rolling window hold more than its limit at any instant (Bybit: staggered windows)', async () => {
    const redis = new Redis(url!);
    connections.push(redis);
    await checkRollingWindows(
      createRedisBudgetStore(redis, `test-${randomBytes(4).toString('hex')}:`),
      1000,
      20,
    );
  });
});
