import Decimal from 'decimal.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createGridHarness, type Harness } from './support/grid-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
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
});
