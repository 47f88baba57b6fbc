import { createInProcessQueue, type JobQueue, reconcileCoinBotJob } from '@gridbot/jobs';
import { createMemoryMembership, ownerOf, reconcileOnOrderUpdate } from '@gridbot/services';
import Decimal from 'decimal.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startOrderStreams } from '../src/order-streams';
import { startWorker } from '../src/start-worker';
import { createGridHarness, type Harness } from './support/grid-harness';
import { waitFor } from './support/wait-for';

let h: Harness | undefined;
let queue: JobQueue | undefined;
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  await queue?.close();
  await h?.close();
  h = undefined;
  queue = undefined;
  stop = undefined;
});

describe('order stream trigger', () => {
  // One retry with a fresh harness: in the full PostgreSQL + Redis suite the stream's fill was twice
  // not applied within 60 s (2026-11-27). Likely cause, fixed since in packages/exchange's
  // order-stream.ts: on a loaded machine the fill's update arrived in the same network read as the
  // subscription's confirmation, ccxt handled it before watchOrders listened and kept it for the
  // next update (which never came); the stream now hands over ccxt's cache after subscribing.
  it('records a fill the price scan cannot see (dip and recovery between two scans) and places the next orders', {
    timeout: 150_000,
    retry: 1,
  }, async () => {
    h = await createGridHarness();
    const harness = h;
    // Entry: lot 1 at 1.0, its take profit at 1.01 and the averaging buy at 0.99.
    await harness.reconcile();
    expect(await harness.ladder()).toEqual(['buy@0.9900', 'sell@1.0100']);

    queue = createInProcessQueue();
    const worker = await startWorker({
      // Scans at their normal pace but on the ticker only (no traded range), and the sweep never
      // runs: only the stream can notice the fill.
      ctx: harness.contextFor('stream-worker', queue, { SCAN_RANGE_MAX_SYMBOLS: '0' }),
      scanIntervalMs: 2000,
      sweepIntervalMs: 3_600_000,
      sweepAfterMs: 3_600_000,
    });
    stop = worker.stop;
    const accountId = harness.sandbox.control.account(harness.keys.apiKey).accountId;
    await waitFor(async () => harness.sandbox.userDataStreams.subscriberCount(accountId) > 0, 60_000);

    // Down through the averaging buy and back (under the new lot's take profit), with no scan in
    // between: both moves happen in one turn of the event loop.
    harness.setPrice('0.985');
    harness.setPrice('0.995');

    await waitFor(
      async () => (await harness.openLots()).length === 2 && (await harness.ladder()).length === 3,
      60_000,
    );
    const lots = await harness.openLots();
    expect(lots.map((l) => l.buyPrice.toString())).toEqual(['1', '0.99']);
    const ladder = await harness.ladder();
    expect(ladder.filter((o) => o.startsWith('sell@'))).toHaveLength(2);
    expect(ladder.filter((o) => o.startsWith('buy@'))).toHaveLength(1);
  });

  it('a Bybit stream gone silent: declared dead, followed again, and the fill made meanwhile booked once by the resume reconcile', {
    timeout: 150_000,
  }, async () => {
    // A heartbeat every 300 ms, dead after 1.5 s of silence (Bybit's own: 20 s, 45 s).
    h = await createGridHarness({
      venue: 'bybit',
      privateStreamTiming: {
        pingEveryMs: 300,
        silenceMs: 1500,
        setupTimeoutMs: 3000,
        minBackoffMs: 100,
        maxBackoffMs: 300,
      },
    });
    const harness = h;
    await harness.reconcile();
    expect(await harness.ladder()).toEqual(['buy@0.9900', 'sell@1.0100']);
    queue = createInProcessQueue();
    const worker = await startWorker({
      // As above: scans on the ticker only and no sweep, so a fill the stream misses stays missed
      // unless the stream's resume reconciles the account.
      ctx: harness.contextFor('stream-worker', queue, { SCAN_RANGE_MAX_SYMBOLS: '0' }),
      scanIntervalMs: 2000,
      sweepIntervalMs: 3_600_000,
      sweepAfterMs: 3_600_000,
    });
    stop = worker.stop;
    const { stream, faults } = harness.sandbox.bybit;
    await waitFor(async () => stream.subscribers('order') === 1, 60_000);

    // The account's connection goes silent (open, not a byte more), then the averaging buy fills
    // out of sight of the scans.
    const accountId = harness.sandbox.control.account(harness.keys.apiKey).accountId;
    faults.streamSilence.silence(accountId);
    harness.setPrice('0.985');
    harness.setPrice('0.995');
    // Well past the silence window, with new connections as silent as the old: nothing booked.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect((await harness.openLots()).length).toBe(1);

    faults.streamSilence.lift();
    // Resumed: the account's coin bot is reconciled (within the default 10 s spread) and the fill booked.
    await waitFor(
      async () => (await harness.openLots()).length === 2 && (await harness.ladder()).length === 3,
      60_000,
    );
    expect((await harness.openLots()).map((l) => l.buyPrice.toString())).toEqual(['1', '0.99']);
    // Once: a live stream and later reconciles add nothing to it.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const buys = await harness.prisma.order.findMany({
      where: { coinBotId: harness.bot.id, side: 'buy', status: 'filled' },
      include: { fills: true },
    });
    // The entry (at market) and the averaging buy, one fill each.
    expect(buys.flatMap((o) => o.fills.map((f) => f.price.toString())).sort()).toEqual(['0.99', '1']);
    expect((await harness.openLots()).length).toBe(2);
  });

  it("reconciles on fills and cancels of our orders only, not on our own placements or others' orders", async () => {
    h = await createGridHarness();
    const harness = h;
    queue = createInProcessQueue();
    const ctx = harness.contextFor('stream-worker', queue);
    await harness.reconcile();
    const ours = await harness.prisma.order.findFirstOrThrow({
      where: { coinBotId: harness.bot.id, status: 'open' },
    });
    const update = (clientOrderId: string, status: 'open' | 'closed' | 'canceled', filled: string) => ({
      id: ours.exchangeOrderId ?? '1',
      clientOrderId,
      status,
      filled: new Decimal(filled),
    });
    const routed = (exchangeAccountId: number, order: ReturnType<typeof update>) =>
      reconcileOnOrderUpdate(ctx, { exchangeAccountId, order });
    const accountId = harness.account.id;
    const mine = ours.clientOrderId;

    expect(await routed(accountId, update('manual-1', 'closed', '1'))).toEqual({ coinBotId: null });
    expect(await routed(accountId, update(mine, 'open', '0'))).toEqual({ coinBotId: null });
    expect(await routed(accountId + 1, update(mine, 'closed', '1'))).toEqual({ coinBotId: null });
    expect(await routed(accountId, update(mine, 'open', '0.5'))).toEqual({ coinBotId: harness.bot.id });
    expect(await routed(accountId, update(mine, 'closed', '1'))).toEqual({ coinBotId: harness.bot.id });
    expect(await routed(accountId, update(mine, 'canceled', '0'))).toEqual({ coinBotId: harness.bot.id });
  });

  it('two workers share the accounts: one follows each, the other takes over (and reconciles) when the owner goes', async () => {
    h = await createGridHarness();
    const harness = h;
    await harness.reconcile(); // open orders: the account needs a stream
    const accountId = harness.sandbox.control.account(harness.keys.apiKey).accountId;
    const membership = createMemoryMembership();
    const queues = { 'worker-a': createInProcessQueue(), 'worker-b': createInProcessQueue() };
    const reasons: Record<string, string[]> = { 'worker-a': [], 'worker-b': [] };
    const streams = Object.fromEntries(
      (['worker-a', 'worker-b'] as const).map((name) => {
        queues[name].process(reconcileCoinBotJob, async ({ reason }) => {
          reasons[name]?.push(reason ?? '');
        });
        const ctx = { ...harness.contextFor(name, queues[name]), membership };
        return [name, startOrderStreams(ctx, { refreshMs: 100, beatMs: 100 })];
      }),
    ) as Record<'worker-a' | 'worker-b', ReturnType<typeof startOrderStreams>>;
    stop = async () => {
      await Promise.all(Object.values(streams).map((s) => s.stop()));
      await Promise.all(Object.values(queues).map((q) => q.close()));
    };

    const owner = ownerOf(String(harness.account.id), ['worker-a', 'worker-b']) as 'worker-a' | 'worker-b';
    const other = owner === 'worker-a' ? 'worker-b' : 'worker-a';
    // Once both have beaten: the owner follows the account, the other does not.
    await waitFor(
      async () =>
        streams[owner].following().includes(harness.account.id) && streams[other].following().length === 0,
      30_000,
    );
    await waitFor(async () => harness.sandbox.userDataStreams.subscriberCount(accountId) === 1, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 500)); // a few more beats: it stays that way
    expect(streams[other].following()).toEqual([]);
    expect(harness.sandbox.userDataStreams.subscriberCount(accountId)).toBe(1);

    // The owner stops (leaves): the other follows the account and reconciles its coin bot once
    // subscribed, for the updates nobody followed in between.
    await streams[owner].stop();
    await waitFor(async () => streams[other].following().includes(harness.account.id), 30_000);
    await waitFor(async () => (reasons[other] ?? []).includes('stream-taken-over'), 30_000);
    expect(harness.sandbox.userDataStreams.subscriberCount(accountId)).toBe(1);
  });

  it('follows the accounts of others while the membership cannot be read (duplicates are harmless, gaps are not)', async () => {
    h = await createGridHarness();
    const harness = h;
    await harness.reconcile();
    queue = createInProcessQueue();
    const reasons: string[] = [];
    queue.process(reconcileCoinBotJob, async ({ reason }) => {
      reasons.push(reason ?? '');
    });
    // A live peer that owns this account, then Redis failing.
    const key = String(harness.account.id);
    const peer = Array.from({ length: 64 }, (_, i) => `peer-${i}`).find((p) => ownerOf(key, ['me', p]) === p);
    if (!peer) throw new Error('no peer name owns the account');
    let failing = false;
    const membership = {
      beat: async () => {
        if (failing) throw new Error('Connection is closed.');
        return ['me', peer].sort();
      },
      leave: async () => undefined,
    };
    const streams = startOrderStreams(
      { ...harness.contextFor('me', queue), membership },
      { refreshMs: 100, beatMs: 100 },
    );
    stop = streams.stop;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(streams.following()).toEqual([]);
    failing = true;
    await waitFor(async () => streams.following().includes(harness.account.id), 30_000);
    // Nobody may have followed it meanwhile: its coin bot is reconciled once the stream is up.
    await waitFor(async () => reasons.includes('stream-taken-over'), 30_000);
  });
});
