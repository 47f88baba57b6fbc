import { createInProcessQueue, type JobQueue } from '@gridbot/jobs';
import { reconcileOnOrderUpdate } from '@gridbot/services';
import Decimal from 'decimal.js';
import { afterEach, describe, expect, it } from 'vitest';
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
  // One retry with a fresh harness: in the full PostgreSQL + Redis suite (never alone, nor with the
  // worker tests or the crash test beside it) the stream's fill was twice not applied within 60 s
  // (2026-11-27); the cause is not found yet (session note).
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
});
