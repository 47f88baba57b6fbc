import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisMembership } from '../src/context/membership';

const url = process.env.REDIS_URL;
const connections: Redis[] = [];
afterAll(() => {
  for (const c of connections) c.disconnect();
});

describe.runIf(url)('membership in Redis (workers on several hosts)', () => {
  it('sees the members of other connections, drops one that stops beating, and one that leaves at once', async () => {
    const prefix = `test-${randomBytes(4).toString('hex')}:`;
    const [a, b] = [new Redis(url!), new Redis(url!)];
    connections.push(a, b);
    const [workerA, workerB] = [createRedisMembership(a, prefix), createRedisMembership(b, prefix)];
    expect(await workerA.beat('order-streams', 'worker-a', 400)).toEqual(['worker-a']);
    expect(await workerB.beat('order-streams', 'worker-b', 400)).toEqual(['worker-a', 'worker-b']);
    expect(await workerB.beat('other-group', 'worker-b', 400)).toEqual(['worker-b']);
    // worker-a stops beating (killed): gone after its time to live, on Redis's clock.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await workerB.beat('order-streams', 'worker-b', 400)).toEqual(['worker-b']);
    expect(await workerA.beat('order-streams', 'worker-a', 60_000)).toEqual(['worker-a', 'worker-b']);
    await workerA.leave('order-streams', 'worker-a');
    expect(await workerB.beat('order-streams', 'worker-b', 400)).toEqual(['worker-b']);
  });
});
