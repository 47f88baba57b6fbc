import { createInProcessQueue, type JobQueue } from '@gridbot/jobs';
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

/**
 * The grid's life on each venue's dialect of the sandbox, through ccxt's class of that venue
 * (grid-lifecycle.int.test.ts walks every rule on Binance): the same engine, the same books.
 */
describe.each(['bybit', 'okx'] as const)('a coin bot trading on %s', (venue) => {
  it('enters, averages down, takes profits, re-enters; dries and pauses; the books equal the exchange', async () => {
    h = await createGridHarness({ venue });
    await h.reconcile();
    expect(await h.openLots()).toHaveLength(1);
    expect(await h.ladder()).toEqual(['buy@0.9900', 'sell@1.0100']);

    h.setPrice('0.99');
    await h.reconcile();
    expect((await h.openLots()).map((l) => l.buyPrice.toString())).toEqual(['1', '0.99']);
    expect(await h.ladder()).toEqual(['buy@0.9791', 'sell@0.9999', 'sell@1.0100']);

    h.setPrice('1.0');
    await h.reconcile();
    expect((await h.closedLots()).map((l) => l.seq)).toEqual([2]);
    expect(await h.ladder()).toEqual(['buy@0.9900', 'sell@1.0100']);

    h.setPrice('1.01');
    await h.reconcile();
    expect((await h.closedLots()).map((l) => l.seq)).toEqual([1, 2]);
    expect((await h.openLots()).map((l) => l.seq)).toEqual([3]);
    expect(await h.ladder()).toEqual(['buy@0.9999', 'sell@1.0201']);

    // Money is conserved: the exchange's USDT is the start minus every cost plus every proceed.
    const lots = await h.prisma.lot.findMany({ where: { coinBotId: h.bot.id } });
    const carried = (await h.prisma.coinBot.findUniqueOrThrow({ where: { id: h.bot.id } })).carryCost;
    const spent = lots.reduce((sum, lot) => sum.plus(lot.cost.toString()), new Decimal(carried.toString()));
    const received = lots.reduce((sum, lot) => sum.plus(lot.proceeds?.toString() ?? 0), new Decimal(0));
    expect(h.balance('USDT').toFixed(8)).toBe(new Decimal(1000).minus(spent).plus(received).toFixed(8));
    // Our open orders are the exchange's, one per intent.
    const ours = await h.prisma.order.findMany({ where: { coinBotId: h.bot.id, status: 'open' } });
    const theirs = await h.openOnExchange();
    expect(theirs.map((o) => o.clientOrderId).sort()).toEqual(ours.map((o) => o.clientOrderId).sort());
    const realized = (await h.closedLots()).reduce((s, l) => s.plus(l.pnl!.toString()), new Decimal(0));
    expect(realized.gt(0)).toBe(true);

    // Dry: the buy goes, the take profit stays; pause: nothing rests, the lot is kept.
    await h.prisma.coinBot.update({ where: { id: h.bot.id }, data: { dry: true } });
    await h.reconcile();
    expect(await h.ladder()).toEqual(['sell@1.0201']);
    await h.prisma.coinBot.update({ where: { id: h.bot.id }, data: { running: false } });
    await h.reconcile();
    expect(await h.ladder()).toEqual([]);
    expect(await h.openLots()).toHaveLength(1);
    expect(await h.reconcile()).toMatchObject({ placed: 0, canceled: 0, filled: 0 });
  }, 90_000);

  it("records a fill the price scan cannot see through the venue's private order stream, without the sweep", {
    timeout: 120_000,
  }, async () => {
    h = await createGridHarness({ venue });
    const harness = h;
    await harness.reconcile();
    expect(await harness.ladder()).toEqual(['buy@0.9900', 'sell@1.0100']);

    queue = createInProcessQueue();
    const worker = await startWorker({
      // Scans on the ticker only (no traded range) and no sweep: only the stream can notice the fill.
      ctx: harness.contextFor('stream-worker', queue, { SCAN_RANGE_MAX_SYMBOLS: '0' }),
      scanIntervalMs: 2000,
      sweepIntervalMs: 3_600_000,
      sweepAfterMs: 3_600_000,
    });
    stop = worker.stop;
    const accountId = harness.sandbox.control.account(harness.keys.apiKey).accountId;
    const subscribed = () =>
      venue === 'bybit'
        ? harness.sandbox.bybit.stream.subscribers('order') > 0
        : harness.sandbox.okx.stream.ordersSubscribers(accountId) > 0;
    await waitFor(async () => subscribed(), 60_000);

    // Down through the averaging buy and back, in one turn of the event loop: no scan sees it.
    harness.setPrice('0.985');
    harness.setPrice('0.995');
    await waitFor(
      async () => (await harness.openLots()).length === 2 && (await harness.ladder()).length === 3,
      60_000,
    );
    expect((await harness.openLots()).map((l) => l.buyPrice.toString())).toEqual(['1', '0.99']);
  });
});
