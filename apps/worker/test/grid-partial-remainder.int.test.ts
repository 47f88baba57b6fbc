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

/**
 * Nothing lost, nothing made up: the coin bought minus the coin sold is the open lots' quantity
 * plus the carry, and the USDT paid is the cost of what is open, carried and sold (closed lots
 * keep the cost share of what they sold).
 */
const expectBooksWhole = async (harness: Harness) => {
  const { prisma, bot } = harness;
  const fills = await prisma.fill.findMany({ where: { coinBotId: bot.id }, include: { order: true } });
  const buys = fills.filter((f) => f.order.side === 'buy');
  const sells = fills.filter((f) => f.order.side === 'sell');
  const fee = new Decimal('0.001'); // the sandbox's 0.1 %, taken from the coin received on buys
  const boughtQty = sum(buys.map((f) => new Decimal(f.qty.toString()).times(new Decimal(1).minus(fee))));
  const soldQty = sum(sells.map((f) => f.qty));
  const paid = sum(buys.map((f) => f.quoteQty));
  const lots = await prisma.lot.findMany({ where: { coinBotId: bot.id } });
  const open = lots.filter((l) => !l.closedAt);
  const closed = lots.filter((l) => l.closedAt);
  const coinBot = await prisma.coinBot.findUniqueOrThrow({ where: { id: bot.id } });
  expect(
    sum(open.map((l) => l.qty))
      .plus(coinBot.carryQty.toString())
      .toFixed(),
  ).toBe(boughtQty.minus(soldQty).toFixed());
  // Open lots hold their unsold cost, closed ones the share of their last part; earlier parts' shares
  // are proceeds − their PnL.
  const earlierShares = sum(
    closed.map((l) =>
      new Decimal(l.proceeds!.toString())
        .minus(l.realizedPnl.toString())
        .minus(new Decimal(l.cost.toString())),
    ),
  );
  const soldCost = sum(closed.map((l) => l.cost)).plus(earlierShares);
  expect(
    soldCost
      .plus(sum(open.map((l) => l.cost)))
      .plus(coinBot.carryCost.toString())
      .toFixed(),
  ).toBe(paid.toFixed());
};

describe('a remainder the exchange will not take as an order is carried (docs/grid.md#remainders)', () => {
  it('a take profit part-filled then paused: the lot closes, its rest joins the next lot, and a purchase limit of 1 buys again', {
    timeout: 120_000,
  }, async () => {
    h = await createGridHarness({ maxTrades: 1 });
    await h.reconcile();
    const [lot] = await h.openLots();
    // 10 USDT at 1 buys 10 XRP, 9.99 after the 0.1 % fee taken in XRP.
    expect([lot!.qty.toFixed(), lot!.cost.toFixed()]).toEqual(['9.99', '10']);
    const tp = await h.prisma.order.findFirstOrThrow({ where: { coinBotId: h.bot.id, role: 'take_profit' } });

    // 9.8 of 9.99 sell at 1.01, then the user pauses: the take profit is cancelled with 0.19 left,
    // 0.1919 USDT at its price, far below the 5 USDT minimum order.
    h.sandbox.control.fillPart(h.keys.apiKey, 'XRP/USDT', tp.clientOrderId, '9.8');
    await h.prisma.coinBot.update({ where: { id: h.bot.id }, data: { running: false } });
    await h.reconcile();
    expect(await h.openOnExchange()).toEqual([]);
    expect(await h.openLots()).toEqual([]);
    const [closed] = await h.closedLots();
    expect(closed!.qty.toFixed()).toBe('9.8');
    let coinBot = await h.prisma.coinBot.findUniqueOrThrow({ where: { id: h.bot.id } });
    expect(coinBot.carryQty.toFixed()).toBe('0.19');
    // The part's cost share and the carried cost are the lot's 10 USDT, to the last digit.
    expect(new Decimal(closed!.cost.toString()).plus(coinBot.carryCost.toString()).toFixed()).toBe('10');
    // Proceeds 9.898 − 0.1 % = 9.888102 for 9.8/9.99 of the cost: one trade, closed, profitable.
    expect(closed!.proceeds!.toFixed()).toBe('9.888102');
    expect(closed!.pnl!.toFixed()).toBe(new Decimal('9.888102').minus(closed!.cost.toString()).toFixed());
    expect([coinBot.closedTrades, coinBot.profitableTrades]).toEqual([1, 1]);
    expect(coinBot.realizedPnl.toFixed()).toBe(closed!.pnl!.toFixed());
    await expectBooksWhole(h);

    // Started again: the purchase limit of 1 is free, so the coin buys; the carry joins that lot.
    await h.prisma.coinBot.update({ where: { id: h.bot.id }, data: { running: true } });
    await h.reconcile();
    const [next] = await h.openLots();
    expect(next!.seq).toBe(2);
    expect(next!.qty.toFixed()).toBe('10.18');
    expect(next!.cost.toFixed()).toBe(new Decimal(10).plus(coinBot.carryCost.toString()).toFixed());
    coinBot = await h.prisma.coinBot.findUniqueOrThrow({ where: { id: h.bot.id } });
    expect([coinBot.carryQty.toFixed(), coinBot.carryCost.toFixed()]).toEqual(['0', '0']);
    // Its take profit sells all of it, the carried coin included.
    const [order] = await h.openOnExchange();
    expect([order!.side, order!.amount.toFixed()]).toEqual(['sell', '10.18']);
    expect(coinBot.lastError).toBeNull();
    await expectBooksWhole(h);
  });

  it('a buy part-filled then cancelled by an edit: no lot, its coin joins the lot its replacement opens', {
    timeout: 120_000,
  }, async () => {
    h = await createGridHarness({ maxTrades: 3 });
    await h.reconcile();
    const buy = await h.prisma.order.findFirstOrThrow({
      where: { coinBotId: h.bot.id, role: 'averaging', status: 'open' },
    });
    expect([buy.price!.toFixed(), buy.qty!.toFixed(), buy.lotSeq]).toEqual(['0.99', '10.1', 2]);

    // 0.5 XRP of the buy at 0.99 fill (0.495 USDT), then the user widens the step to 2 %.
    h.sandbox.control.fillPart(h.keys.apiKey, 'XRP/USDT', buy.clientOrderId, '0.5');
    await h.prisma.coinBot.update({ where: { id: h.bot.id }, data: { stepPct: '2' } });
    await h.reconcile();
    // Still one lot: the 0.4995 XRP bought could never be sold on their own.
    expect((await h.openLots()).map((l) => l.seq)).toEqual([1]);
    let coinBot = await h.prisma.coinBot.findUniqueOrThrow({ where: { id: h.bot.id } });
    expect([coinBot.carryQty.toFixed(), coinBot.carryCost.toFixed(), coinBot.nextSeq]).toEqual([
      '0.4995',
      '0.495',
      2,
    ]);
    // The replacement buys lot 2 at 0.98: its quantity 10.2 (10 / 0.98 on the step).
    expect(await h.ladder()).toEqual(['buy@0.9800', 'sell@1.0200']);

    h.setPrice('0.98');
    await h.reconcile();
    const lots = await h.openLots();
    expect(lots.map((l) => l.seq)).toEqual([1, 2]);
    // 10.2 − 0.0102 fee + 0.4995 carried; 9.996 USDT + 0.495 carried.
    expect([lots[1]!.qty.toFixed(), lots[1]!.cost.toFixed()]).toEqual(['10.6893', '10.491']);
    coinBot = await h.prisma.coinBot.findUniqueOrThrow({ where: { id: h.bot.id } });
    expect([coinBot.carryQty.toFixed(), coinBot.carryCost.toFixed(), coinBot.nextSeq]).toEqual(['0', '0', 3]);
    expect(coinBot.lastError).toBeNull();
    await expectBooksWhole(h);
  });
});
