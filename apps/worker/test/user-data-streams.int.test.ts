import { randomBytes } from 'node:crypto';
import {
  type ConnectionLimit,
  createExchangeClient,
  createMemoryConnectionLimiter,
  createUserDataStreams,
  type UserDataStreams,
} from '@gridbot/exchange';
import { createInProcessQueue, type JobQueue, reconcileCoinBotJob } from '@gridbot/jobs';
import { type SandboxExchangeHandle, startSandboxExchange } from '@gridbot/sandbox';
import { createRedisConnectionLimiter } from '@gridbot/services';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { startOrderStreams } from '../src/order-streams';
import { createGridHarness, type Harness } from './support/grid-harness';
import { waitFor } from './support/wait-for';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The sandbox's connection limit for the storm: 20 attempts per 4 s per IP (Binance: 300 per 5 min). */
const LIMIT: ConnectionLimit = { attempts: 20, windowMs: 4000 };
/**
 * What the workers allow themselves, with the production budget's margins (80 %, a longer window:
 * USER_STREAM_CONNECTION_BUDGET): the sandbox counts a handshake when it arrives, later than the
 * limiter granted it.
 */
const BUDGET: ConnectionLimit = { attempts: 16, windowMs: 5000 };

/**
 * `workers` processes (each its own user data connections, one account each) against one sandbox
 * whose per-IP connection limit is LIMIT; `limiterFor` gives each its connection limiter.
 */
const startFleet = async (
  sandbox: SandboxExchangeHandle,
  workers: number,
  limiterFor: () => ReturnType<typeof createMemoryConnectionLimiter>,
) => {
  const subscribed: { resumed: boolean }[][] = [];
  for (let i = 0; i < workers; i++) {
    const keys = sandbox.control.createAccount({ balances: { USDT: '10' } });
    const mux: UserDataStreams = createUserDataStreams({
      url: `${sandbox.wsUrl}/ws-api/v3`,
      limiter: limiterFor(),
      minBackoffMs: 200,
      maxBackoffMs: 2000,
    });
    cleanups.push(() => mux.close());
    const client = createExchangeClient({
      exchange: 'binance',
      mode: 'sandbox',
      sandboxUrl: sandbox.url,
      ...keys,
      userDataStreams: () => mux,
    });
    const seen: { resumed: boolean }[] = [];
    subscribed.push(seen);
    cleanups.push(
      client.streamOrderUpdates({ onUpdate: () => undefined, onSubscribed: (info) => seen.push(info) }),
    );
  }
  return subscribed;
};

const redisUrl = process.env.REDIS_URL;

describe('user data streams under a reconnect storm (sandbox with a per-IP connection limit)', () => {
  it.skipIf(!redisUrl)(
    '50 workers connecting and then all reconnecting at once stay within the limit through the shared Redis limiter',
    { timeout: 120_000 },
    async () => {
      const sandbox = await startSandboxExchange({
        userDataLimits: { connectionsPerWindow: LIMIT.attempts, connectionWindowMs: LIMIT.windowMs },
      });
      cleanups.push(() => sandbox.close());
      const redis = new Redis(redisUrl!);
      cleanups.push(() => redis.disconnect());
      const prefix = `test-${randomBytes(4).toString('hex')}:`;
      const host = new URL(sandbox.url).host;
      const subscribed = await startFleet(sandbox, 50, () =>
        createRedisConnectionLimiter(redis, prefix, host, BUDGET),
      );
      await waitFor(async () => subscribed.every((s) => s.length === 1), 60_000);
      expect(sandbox.userDataConnections.accepted).toBe(50);

      // Every connection cut at once: 50 workers reconnect in the same instant.
      expect(sandbox.userDataConnections.drop()).toBe(50);
      await waitFor(async () => subscribed.every((s) => s.length === 2), 60_000);
      for (const s of subscribed) expect(s).toEqual([{ resumed: false }, { resumed: true }]);
      expect(sandbox.userDataConnections.accepted).toBe(100);
      expect(sandbox.userDataConnections.refused).toBe(0);
    },
  );

  it('without a shared limiter the same fleet is refused (429) — and still gets in, backing off', {
    timeout: 120_000,
  }, async () => {
    const sandbox = await startSandboxExchange({
      userDataLimits: { connectionsPerWindow: LIMIT.attempts, connectionWindowMs: LIMIT.windowMs },
    });
    cleanups.push(() => sandbox.close());
    const subscribed = await startFleet(sandbox, 50, () => createMemoryConnectionLimiter(BUDGET));
    await waitFor(async () => subscribed.every((s) => s.length === 1), 90_000);
    expect(sandbox.userDataConnections.refused).toBeGreaterThan(0);
  });
});

describe('resume reconciles', () => {
  let h: Harness | undefined;
  let queue: JobQueue | undefined;
  afterEach(async () => {
    await queue?.close();
    await h?.close();
    h = undefined;
    queue = undefined;
  });

  it('after a dropped connection, reconciles every coin bot of the account as low-priority jobs spread over the window', {
    timeout: 120_000,
  }, async () => {
    h = await createGridHarness();
    const harness = h;
    await harness.reconcile();
    // Three more running coin bots on the account (database rows: the jobs are only recorded).
    for (const coin of ['ADA', 'ETH', 'SOL']) {
      await harness.prisma.coinBot.create({
        data: {
          userId: harness.bot.userId,
          exchangeAccountId: harness.account.id,
          coin,
          symbol: `${coin}/USDT`,
          orderSize: '10',
          stepPct: '1',
          stepIncreasePct: '0.1',
          maxTrades: 3,
          running: true,
          startedAt: new Date(),
        },
      });
    }
    queue = createInProcessQueue();
    const runs: { coinBotId: number; reason: string; at: number }[] = [];
    queue.process(
      reconcileCoinBotJob,
      async ({ coinBotId, reason }) => {
        runs.push({ coinBotId, reason: reason ?? '', at: Date.now() });
      },
      { concurrency: 4 },
    );
    const streams = startOrderStreams(harness.contextFor('me', queue), {
      refreshMs: 100,
      beatMs: 100,
      resumeSpreadMs: 4000,
    });
    cleanups.push(() => streams.stop());
    const accountId = harness.sandbox.control.account(harness.keys.apiKey).accountId;
    await waitFor(async () => harness.sandbox.userDataStreams.subscriberCount(accountId) === 1);
    expect(runs).toEqual([]);

    const droppedAt = Date.now();
    expect(harness.sandbox.userDataConnections.drop()).toBe(1);
    await waitFor(async () => runs.length === 4, 30_000);
    expect(new Set(runs.map((r) => r.coinBotId)).size).toBe(4);
    expect(runs.every((r) => r.reason === 'stream-resumed')).toBe(true);
    // Spread at random over the 4 s window, not all at once.
    const times = runs.map((r) => r.at - droppedAt);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(50);
    expect(Math.max(...times)).toBeLessThan(4000 + 5000);
  });
});
