import Decimal from 'decimal.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createGridHarness, type Harness } from './support/grid-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const sum = (values: { toString(): string }[]) =>
  values.reduce<Decimal>((s, v) => s.plus(v.toString()), new Decimal(0));

describe('a take profit filled in two parts (docs/pnl.md)', () => {
  it('counts one trade, profitable on the sum of its parts, with each part realized in daily PnL', {
    timeout: 120_000,
  }, async () => {
    // Fee 1 % so that a part sold at a small step loses: S = 10 at 1.0 buys 10 XRP, 9.9 after the fee.
    h = await createGridHarness({ maxTrades: 1, stepPct: '10', feePct: '1' });
    await h.reconcile();
    const [lot] = await h.openLots();
    expect([lot!.qty.toString(), lot!.cost.toString()]).toEqual(['9.9', '10']);
    const tp = await h.prisma.order.findFirstOrThrow({ where: { coinBotId: h.bot.id, role: 'take_profit' } });
    expect(tp.price!.toString()).toBe('1.1');

    // 4.9 of 9.9 sell at 1.1: 5.39 − 1 % = 5.3361 for 4.9/9.9 of the cost (4.949494949494949495).
    h.sandbox.control.fillPart(h.keys.apiKey, 'XRP/USDT', tp.clientOrderId, '4.9');
    // The user narrows the step to 0.5 %: the take profit is replaced (cancelled with 4.9 filled)
    // by one for the 5 left at 1.005, which then fills at a loss: 5.025 − 1 % = 4.97475 for the
    // remaining cost 5.050505050505050505.
    await h.prisma.coinBot.update({ where: { id: h.bot.id }, data: { stepPct: '0.5' } });
    await h.reconcile();
    const [partly] = await h.openLots();
    expect(partly!.qty.toString()).toBe('5');
    expect(partly!.realizedPnl.toString()).toBe('0.386605050505050505');
    let stats = await h.prisma.coinBot.findUniqueOrThrow({ where: { id: h.bot.id } });
    expect([stats.closedTrades, stats.profitableTrades]).toEqual([0, 0]);

    h.setPrice('1.005');
    await h.reconcile();
    const [closed] = await h.closedLots();
    const parts = ['0.386605050505050505', '-0.075755050505050505'];
    expect(closed!.pnl!.toString()).toBe('0.31085');
    expect(closed!.realizedPnl.toString()).toBe('0.31085');
    expect(closed!.proceeds!.toString()).toBe('10.31085');
    stats = await h.prisma.coinBot.findUniqueOrThrow({ where: { id: h.bot.id } });
    // One trade, profitable: the parts sum to +0.31085 although the last part lost.
    expect([stats.closedTrades, stats.profitableTrades]).toEqual([1, 1]);
    expect(stats.realizedPnl.toString()).toBe('0.31085');
    const daily = await h.prisma.dailyPnl.findMany({ where: { coinBotId: h.bot.id } });
    expect(sum(daily.map((d) => d.realizedPnl)).toFixed()).toBe(sum(parts).toFixed());
    expect(daily.reduce((n, d) => n + d.closedTrades, 0)).toBe(1);
    expect(daily.reduce((n, d) => n + d.profitableTrades, 0)).toBe(1);
  });
});
