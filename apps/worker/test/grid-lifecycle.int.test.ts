import Decimal from 'decimal.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createGridHarness, type Harness } from './support/grid-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Money never appears or vanishes: the exchange's USDT equals the start minus every cost plus every proceed. */
const expectUsdtConserved = async (harness: Harness) => {
  const lots = await harness.prisma.lot.findMany({ where: { coinBotId: harness.bot.id } });
  // Coin carried over between lots (below one lot step) holds its share of the cost.
  const carried = (
    await harness.prisma.coinBot.findUniqueOrThrow({ where: { id: harness.bot.id } })
  ).carryCost.toString();
  const spent = lots.reduce((sum, lot) => sum.plus(lot.cost.toString()), new Decimal(carried));
  const received = lots.reduce((sum, lot) => sum.plus(lot.proceeds?.toString() ?? 0), new Decimal(0));
  // Partly sold lots carry the remaining cost; their sold part is in daily PnL, not in proceeds.
  expect(harness.balance('USDT').toFixed(8)).toBe(new Decimal(1000).minus(spent).plus(received).toFixed(8));
};

const expectOneOrderPerIntent = async (harness: Harness) => {
  const exchange = await harness.openOnExchange();
  const ours = await harness.prisma.order.findMany({ where: { coinBotId: harness.bot.id, status: 'open' } });
  expect(exchange.map((o) => o.clientOrderId).sort()).toEqual(ours.map((o) => o.clientOrderId).sort());
  expect(new Set(exchange.map((o) => o.clientOrderId)).size).toBe(exchange.length);
};

describe('a coin bot trading on the sandbox exchange', () => {
  it('enters, averages down with the step increase, waits at the purchase limit, takes profits and re-enters', async () => {
    h = await createGridHarness();
    // Entry: one market buy of S = 10 USDT at 1.0, then TP +1 % and the first averaging buy −1 %.
    await h.reconcile();
    expect(await h.openLots()).toHaveLength(1);
    expect(await h.ladder()).toEqual(['buy@0.9900', 'sell@1.0100']);

    // Second lot at 0.99; the next buy is 1 % + 0.1 % lower: 0.99 × (1 − 0.011) = 0.97911.
    h.setPrice('0.99');
    await h.reconcile();
    expect((await h.openLots()).map((l) => l.buyPrice.toString())).toEqual(['1', '0.99']);
    expect(await h.ladder()).toEqual(['buy@0.9791', 'sell@0.9999', 'sell@1.0100']);

    // Third lot reaches N = 3: no buy order, only the three take profits.
    h.setPrice('0.9791');
    await h.reconcile();
    expect(await h.openLots()).toHaveLength(3);
    expect(await h.ladder()).toEqual(['sell@0.9889', 'sell@0.9999', 'sell@1.0100']);

    // Deeper still: the bot waits (no new lot).
    h.setPrice('0.95');
    await h.reconcile();
    expect(await h.openLots()).toHaveLength(3);
    expect(await h.ladder()).toEqual(['sell@0.9889', 'sell@0.9999', 'sell@1.0100']);

    // Back to 1.0: lots 3 and 2 sell at their take profits; the averaging buy returns under lot 1.
    h.setPrice('1.0');
    await h.reconcile();
    const closed = await h.closedLots();
    expect(closed.map((l) => l.seq)).toEqual([2, 3]);
    for (const lot of closed) expect(new Decimal(lot.pnl!.toString()).gt(0)).toBe(true);
    expect(await h.ladder()).toEqual(['buy@0.9900', 'sell@1.0100']);

    // Lot 1 sells at 1.01; with no lot left the bot re-enters at market.
    h.setPrice('1.01');
    await h.reconcile();
    expect((await h.closedLots()).map((l) => l.seq)).toEqual([1, 2, 3]);
    const open = await h.openLots();
    expect(open.map((l) => l.seq)).toEqual([4]);
    expect(open[0]!.buyPrice.toString()).toBe('1.01');
    expect(await h.ladder()).toEqual(['buy@0.9999', 'sell@1.0201']);

    // Realized PnL: the daily rows add up to the closed lots, and every trade was profitable.
    const daily = await h.prisma.dailyPnl.findMany({ where: { coinBotId: h.bot.id } });
    const realized = (await h.closedLots()).reduce((s, l) => s.plus(l.pnl!.toString()), new Decimal(0));
    expect(daily.reduce((s, d) => s.plus(d.realizedPnl.toString()), new Decimal(0)).eq(realized)).toBe(true);
    expect(daily.reduce((s, d) => s + d.profitableTrades, 0)).toBe(3);
    const stats = await h.prisma.coinBot.findUniqueOrThrow({ where: { id: h.bot.id } });
    expect(new Decimal(stats.realizedPnl.toString()).eq(realized)).toBe(true);
    expect([stats.closedTrades, stats.profitableTrades]).toEqual([3, 3]);
    await expectUsdtConserved(h);
    await expectOneOrderPerIntent(h);

    // Running again with nothing new changes nothing.
    expect(await h.reconcile()).toMatchObject({ status: 'done', placed: 0, canceled: 0, filled: 0 });
  });

  it('dry: no more buys, sells continue, and after the last sell the coin stays idle', async () => {
    h = await createGridHarness();
    await h.reconcile();
    await h.prisma.coinBot.update({ where: { id: h.bot.id }, data: { dry: true } });
    await h.reconcile();
    expect(await h.ladder()).toEqual(['sell@1.0100']);
    h.setPrice('1.02');
    await h.reconcile();
    expect(await h.openLots()).toHaveLength(0);
    expect(await h.ladder()).toEqual([]);
    await expectUsdtConserved(h);
  });

  it('global dry (dryAll) acts like coin dry', async () => {
    h = await createGridHarness();
    await h.prisma.user.update({ where: { id: h.bot.userId }, data: { dryAll: true } });
    await h.reconcile();
    expect(await h.openLots()).toHaveLength(0);
    expect(await h.ladder()).toEqual([]);
  });

  it('pause cancels the resting orders and keeps the lots; start re-places them', async () => {
    h = await createGridHarness();
    await h.reconcile();
    await h.prisma.coinBot.update({ where: { id: h.bot.id }, data: { running: false } });
    await h.reconcile();
    expect(await h.ladder()).toEqual([]);
    expect(await h.openLots()).toHaveLength(1);
    expect(h.balance('XRP').gt(0)).toBe(true);
    await h.prisma.coinBot.update({ where: { id: h.bot.id }, data: { running: true } });
    await h.reconcile();
    expect(await h.ladder()).toEqual(['buy@0.9900', 'sell@1.0100']);
    await expectOneOrderPerIntent(h);
  });

  it('a settings edit re-plans the resting orders of open deals', async () => {
    h = await createGridHarness();
    await h.reconcile();
    await h.prisma.coinBot.update({ where: { id: h.bot.id }, data: { stepPct: '2' } });
    const result = await h.reconcile();
    expect(result.canceled).toBe(2);
    expect(await h.ladder()).toEqual(['buy@0.9800', 'sell@1.0200']);
    await expectOneOrderPerIntent(h);
  });
});
