import { tradeFeeMicro } from '@gridbot/domain';
import {
  cancelPendingBuyNow,
  closeAllDealsNow,
  DEAL_COMMAND_TTL_MS,
  isAppError,
  quoteDealSaleNow,
  sellDealNow,
} from '@gridbot/services';
import Decimal from 'decimal.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createGridHarness, expectTradeFeesOncePerLot, type Harness } from './support/grid-harness';

// The user's deal controls carried out by the engine against the sandbox exchange
// (docs/grid.md#deal-controls): sell one deal now, close all, cancel the pending buy; and bad
// timing — the take profit sold first, the market halted — changing nothing.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const user = (harness: Harness) => ({ userId: harness.bot.userId, coinBotId: harness.bot.id });
const command = (harness: Harness, id: number) =>
  harness.prisma.dealCommand.findUniqueOrThrow({ where: { id } });
const botRow = (harness: Harness) =>
  harness.prisma.coinBot.findUniqueOrThrow({ where: { id: harness.bot.id } });
const sandboxTrades = (harness: Harness) => harness.sandbox.control.trades(harness.keys.apiKey, 'XRP/USDT');
const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  return isAppError(error) ? error.code : error;
};

/** The fleet's check (docs/fleet.md): one fill per exchange trade, with its price and quantity. */
const expectFillsAreTrades = async (harness: Harness) => {
  const trades = sandboxTrades(harness);
  const fills = await harness.prisma.fill.findMany({
    where: { coinBotId: harness.bot.id },
    orderBy: { id: 'asc' },
  });
  expect(fills.map((f) => [f.exchangeTradeId, f.price.toFixed(), f.qty.toFixed()]).sort()).toEqual(
    trades.map((t) => [String(t.id), new Decimal(t.price).toFixed(), new Decimal(t.qty).toFixed()]).sort(),
  );
  return trades;
};

/** Runs the engine until the command has ended. */
const carryOut = async (harness: Harness, id: number) => {
  for (let run = 0; run < 4 && (await command(harness, id)).status === 'pending'; run += 1)
    await harness.reconcile();
  return command(harness, id);
};

describe('sell one deal now (docs/grid.md#deal-controls)', () => {
  it('sells the lot at market in parts at the limited liquidity, books it exactly as a take profit, and the grid carries on', {
    timeout: 120_000,
  }, async () => {
    h = await createGridHarness();
    await h.reconcile();
    const [lot] = await h.openLots();
    expect(lot!.qty.toFixed()).toBe('9.99');
    expect(await h.ladder()).toEqual(['buy@0.9900', 'sell@1.0100']);
    // The price rises under the take profit; the book holds 3 USDT a level, 0.1 % apart.
    h.setPrice('1.005');
    h.sandbox.control.setLiquidity('XRPUSDT', { quotePerLevel: '3', levelSpacingPct: '0.1' });

    const quote = await quoteDealSaleNow(h.contextFor(), { ...user(h), lot: 1 });
    expect(quote).toMatchObject({ price: '1.005', priceSource: 'bid', feePct: '0.1' });
    // 9.99 × 1.005 − 0.1 % = 10.02991005; the lot cost 10 → +0.02991005, 20 % of it to the platform.
    expect(quote.lots).toEqual([
      expect.objectContaining({
        lotNumber: 1,
        quantity: '9.99',
        expectedProceeds: '10.02991',
        expectedPnl: '0.02991',
        expectedTradeFee: '0.005982',
        sellable: true,
      }),
    ]);

    const asked = await sellDealNow(h.contextFor(), { ...user(h), lot: 1 });
    expect(asked.command).toMatchObject({ kind: 'sell_lot', status: 'pending', lots: [1], result: null });
    const done = await carryOut(h, asked.command.id);
    expect(done.status).toBe('done');

    // The exchange: one market sell, filled level by level; the take profit cancelled first.
    const sells = h.sandbox.control.orders(h.keys.apiKey, 'XRP/USDT').filter((o) => o.side === 'SELL');
    expect(sells.map((o) => [o.type, o.status])).toEqual([
      ['LIMIT', 'CANCELED'],
      ['MARKET', 'FILLED'],
      // The next lot's take profit.
      ['LIMIT', 'NEW'],
    ]);
    const trades = await expectFillsAreTrades(h);
    const sold = trades.filter((t) => !t.isBuyer);
    expect(sold.length).toBeGreaterThan(2);
    // The books: proceeds = Σ quote − Σ fee (charged in USDT), PnL = proceeds − cost, fee 20 % of it.
    const proceeds = sold.reduce((s, t) => s.plus(t.quoteQty).minus(t.commission), new Decimal(0));
    const [closed] = await h.closedLots();
    expect(closed!.proceeds!.toFixed()).toBe(proceeds.toFixed());
    expect(closed!.pnl!.toFixed()).toBe(proceeds.minus(10).toFixed());
    expect(closed!.tradeFee).toBe(tradeFeeMicro(closed!.pnl!.toFixed()));
    const stats = await botRow(h);
    expect([stats.realizedPnl.toFixed(), stats.closedTrades, stats.profitableTrades]).toEqual([
      closed!.pnl!.toFixed(),
      1,
      1,
    ]);
    const [day] = await h.prisma.dailyPnl.findMany({ where: { coinBotId: h.bot.id } });
    expect(day!.realizedPnl.toFixed()).toBe(closed!.pnl!.toFixed());
    await expectTradeFeesOncePerLot(h);
    const market = await h.prisma.order.findFirstOrThrow({ where: { role: 'market_sell' } });
    expect(market).toMatchObject({ key: 'sell:1', commandId: asked.command.id, status: 'filled' });

    // The command's result is what the books say; the activity log has the request and the end.
    expect(done.result).toMatchObject({
      lots: [{ lotNumber: 1, outcome: 'sold', quantity: '9.99', pnl: closed!.pnl!.toFixed(), code: null }],
      proceeds: proceeds.toFixed(),
      pnl: closed!.pnl!.toFixed(),
    });
    const log = await h.prisma.coinActivity.findMany({
      where: { coinBotId: h.bot.id, kind: { in: ['deal_sale_requested', 'deal_command_done'] } },
      orderBy: { id: 'asc' },
    });
    expect(log.map((a) => [a.kind, a.actor])).toEqual([
      ['deal_sale_requested', 'user'],
      ['deal_command_done', 'engine'],
    ]);

    // Running: the grid carries on — a new entry at market and its take profit, the next buy below.
    const next = await h.openLots();
    expect(next.map((l) => l.seq)).toEqual([2]);
    expect((await h.openOnExchange()).map((o) => o.side).sort()).toEqual(['buy', 'sell']);
    expect(await h.reconcile()).toMatchObject({ status: 'done', placed: 0, canceled: 0 });
  });

  it('a book that runs out sells part of the lot: the rest stays a deal with its take profit', {
    timeout: 120_000,
  }, async () => {
    h = await createGridHarness({ maxTrades: 1 });
    await h.reconcile();
    // 0.01 XRP a level: the market sell empties the 200 levels the book has and its rest expires.
    h.sandbox.control.setLiquidity('XRPUSDT', { quotePerLevel: '0.01', levelSpacingPct: '0.01' });
    const asked = await sellDealNow(h.contextFor(), { ...user(h), lot: 1 });
    const done = await carryOut(h, asked.command.id);
    expect(done.status).toBe('done');
    const sold = sandboxTrades(h).filter((t) => !t.isBuyer);
    const soldQty = sold.reduce((s, t) => s.plus(t.qty), new Decimal(0));
    expect(soldQty.toFixed()).toBe('2');
    expect(done.result).toMatchObject({
      lots: [{ lotNumber: 1, outcome: 'partly_sold', quantity: '2', pnl: null }],
    });
    await expectFillsAreTrades(h);
    const [rest] = await h.openLots();
    expect(rest!.qty.toFixed()).toBe('7.99');
    // The rest is the same deal, its take profit resting for what is left.
    const tp = await h.prisma.order.findFirstOrThrow({
      where: { coinBotId: h.bot.id, role: 'take_profit', status: 'open' },
    });
    expect(tp.qty!.toFixed()).toBe('7.99');
    expect((await botRow(h)).closedTrades).toBe(0);
  });
});

describe('close all deals', () => {
  it('sells every deal at market in one run; a dry coin then dries, buying nothing', {
    timeout: 120_000,
  }, async () => {
    h = await createGridHarness({ maxTrades: 3 });
    await h.reconcile();
    h.setPrice('0.99');
    await h.reconcile();
    h.setPrice('0.978');
    await h.reconcile();
    expect((await h.openLots()).map((l) => l.seq)).toEqual([1, 2, 3]);
    await h.prisma.coinBot.update({ where: { id: h.bot.id }, data: { dry: true } });

    const quote = await quoteDealSaleNow(h.contextFor(), user(h));
    expect(quote.lots.map((l) => l.lotNumber)).toEqual([3, 2, 1]);
    const asked = await closeAllDealsNow(h.contextFor(), user(h));
    expect(asked.command).toMatchObject({ kind: 'close_all', lots: [1, 2, 3] });
    expect(await h.reconcile()).toMatchObject({ status: 'done' });
    const done = await command(h, asked.command.id);
    expect(done.status).toBe('done');
    expect((done.result as { lots: { outcome: string }[] }).lots.map((l) => l.outcome)).toEqual([
      'sold',
      'sold',
      'sold',
    ]);
    expect(await h.openLots()).toEqual([]);
    expect(await h.openOnExchange()).toEqual([]);
    await expectFillsAreTrades(h);
    const closed = await h.closedLots();
    expect(closed).toHaveLength(3);
    const pnl = closed.reduce((s, l) => s.plus(l.pnl!.toFixed()), new Decimal(0));
    expect((await botRow(h)).realizedPnl.toFixed()).toBe(pnl.toFixed());
    expect((done.result as { pnl: string }).pnl).toBe(pnl.toFixed());
    await expectTradeFeesOncePerLot(h);
    expect(await refusal(closeAllDealsNow(h.contextFor(), user(h)))).toBe('NO_OPEN_DEALS');
  });

  it('a paused coin sells what it was told and places nothing else', { timeout: 120_000 }, async () => {
    h = await createGridHarness();
    await h.reconcile();
    await h.prisma.coinBot.update({ where: { id: h.bot.id }, data: { running: false } });
    await h.reconcile();
    expect(await h.openOnExchange()).toEqual([]);
    const asked = await closeAllDealsNow(h.contextFor(), user(h));
    expect((await carryOut(h, asked.command.id)).status).toBe('done');
    expect(await h.openLots()).toEqual([]);
    expect(await h.openOnExchange()).toEqual([]);
    expect(
      await h.prisma.order.count({ where: { coinBotId: h.bot.id, status: { in: ['pending', 'open'] } } }),
    ).toBe(0);
  });
});

describe('cancel the pending buy', () => {
  it('cancels the resting buy and dries the coin, so it is not placed again; a buy that filled first is already filled', {
    timeout: 120_000,
  }, async () => {
    h = await createGridHarness();
    await h.reconcile();
    expect(await h.ladder()).toEqual(['buy@0.9900', 'sell@1.0100']);
    const asked = await cancelPendingBuyNow(h.contextFor(), user(h));
    expect(asked.command).toMatchObject({ kind: 'cancel_buy', lots: [2] });
    expect((await botRow(h)).dry).toBe(true);
    const done = await carryOut(h, asked.command.id);
    expect(done).toMatchObject({ status: 'done', result: expect.objectContaining({ boughtQty: '0' }) });
    expect(await h.ladder()).toEqual(['sell@1.0100']);
    expect(await h.reconcile()).toMatchObject({ placed: 0 });
    expect(await refusal(cancelPendingBuyNow(h.contextFor(), user(h)))).toBe('NO_PENDING_BUY');
    await h.prisma.coinBot.update({ where: { id: h.bot.id }, data: { dry: false } });
    await h.reconcile();
    expect(await h.ladder()).toEqual(['buy@0.9900', 'sell@1.0100']);

    // Asked again, but the buy fills before the engine gets to it: already filled, its lot booked.
    const late = await cancelPendingBuyNow(h.contextFor(), user(h));
    h.setPrice('0.99');
    expect((await carryOut(h, late.command.id)).status).toBe('already_filled');
    expect((await h.openLots()).map((l) => l.seq)).toEqual([1, 2]);
    await expectFillsAreTrades(h);
  });
});

describe('bad timing changes nothing', () => {
  it('the take profit sold the lot first: the command ends as already sold, nothing else is sent', {
    timeout: 120_000,
  }, async () => {
    h = await createGridHarness({ maxTrades: 1 });
    await h.reconcile();
    const asked = await sellDealNow(h.contextFor(), { ...user(h), lot: 1 });
    // The take profit at 1.01 fills before the engine gets to the command.
    h.setPrice('1.01');
    const sent = h.sandbox.control.orders(h.keys.apiKey, 'XRP/USDT').length;
    const done = await carryOut(h, asked.command.id);
    expect(done).toMatchObject({ status: 'already_sold', code: null });
    expect(done.result).toMatchObject({ lots: [{ lotNumber: 1, outcome: 'already_sold', quantity: '0' }] });
    expect(await h.prisma.order.count({ where: { role: 'market_sell' } })).toBe(0);
    const [closed] = await h.closedLots();
    expect(closed!.sellPrice!.toFixed()).toBe('1.01');
    // Only the grid's next entry and its take profit were sent after the take profit: no sale of ours.
    expect(
      h.sandbox.control
        .orders(h.keys.apiKey, 'XRP/USDT')
        .slice(sent)
        .map((o) => [o.side, o.type]),
    ).toEqual([
      ['BUY', 'MARKET'],
      ['SELL', 'LIMIT'],
    ]);
    await expectFillsAreTrades(h);
    await expectTradeFeesOncePerLot(h);
    // Asked now, the closed deal is refused at once.
    expect(await refusal(sellDealNow(h.contextFor(), { ...user(h), lot: 1 }))).toBe('DEAL_ALREADY_SOLD');
  });

  it('the market halts before the engine sells: refused with MARKET_CLOSED, the take profit stays; a stale command is dropped', {
    timeout: 120_000,
  }, async () => {
    h = await createGridHarness();
    await h.reconcile();
    const before = await h.ladder();
    const asked = await sellDealNow(h.contextFor(), { ...user(h), lot: 1 });
    h.sandbox.control.setMarketStatus('XRPUSDT', 'HALT');
    // The engine's markets are fetched again (their TTL passed).
    await (await h.clients.forAccount(h.account.id)).loadMarkets(true);
    const done = await carryOut(h, asked.command.id);
    expect(done).toMatchObject({ status: 'failed', code: 'MARKET_CLOSED' });
    expect(await h.ladder()).toEqual(before);
    expect(await h.openLots()).toHaveLength(1);
    // Asked while halted: refused at once, nothing recorded.
    expect(await refusal(sellDealNow(h.contextFor(), { ...user(h), lot: 1 }))).toBe('MARKET_CLOSED');
    expect(await h.prisma.dealCommand.count()).toBe(1);
    h.sandbox.control.setMarketStatus('XRPUSDT', 'TRADING');
    await (await h.clients.forAccount(h.account.id)).loadMarkets(true);
    await h.reconcile();
    expect(await h.ladder()).toEqual(before);

    // Trading again, but the engine gets to the next command only after 2 minutes: dropped, nothing sold.
    const stale = await sellDealNow(h.contextFor(), { ...user(h), lot: 1 });
    await h.prisma.dealCommand.update({
      where: { id: stale.command.id },
      data: { createdAt: new Date(Date.now() - DEAL_COMMAND_TTL_MS - 1000) },
    });
    expect(await carryOut(h, stale.command.id)).toMatchObject({
      status: 'expired',
      code: 'DEAL_COMMAND_EXPIRED',
    });
    expect(await h.ladder()).toEqual(before);
    expect(await h.prisma.order.count({ where: { role: 'market_sell' } })).toBe(0);
  });

  it('one command at a time per coin, and concurrent requests record one', { timeout: 120_000 }, async () => {
    h = await createGridHarness();
    await h.reconcile();
    const ctx = h.contextFor();
    const both = await Promise.allSettled([
      sellDealNow(ctx, { ...user(h), lot: 1 }),
      sellDealNow(ctx, { ...user(h), lot: 1 }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = both.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(isAppError(refused.reason) && refused.reason.code).toBe('DEAL_COMMAND_PENDING');
    const first = both.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{
      command: { id: number };
    }>;
    expect((await carryOut(h, first.value.command.id)).status).toBe('done');
    // The same Idempotency-Key twice at once (the next lot, bought after the sale): one command, both answered with it.
    const keyed = await Promise.all([
      sellDealNow(ctx, { ...user(h), lot: 2, idempotencyKey: 'sell-key-0001' }),
      sellDealNow(ctx, { ...user(h), lot: 2, idempotencyKey: 'sell-key-0001' }),
    ]);
    expect(keyed[0].command.id).toBe(keyed[1].command.id);
    expect(await h.prisma.dealCommand.count()).toBe(2);
    expect((await carryOut(h, keyed[0].command.id)).status).toBe('done');
    expect(sandboxTrades(h).filter((t) => !t.isBuyer)).toHaveLength(2);
    // A retry after it is done answers the same command; the same key for another request is a conflict.
    const again = await sellDealNow(ctx, { ...user(h), lot: 2, idempotencyKey: 'sell-key-0001' });
    expect(again.command).toMatchObject({ id: keyed[0].command.id, status: 'done' });
    expect(await refusal(closeAllDealsNow(ctx, { ...user(h), idempotencyKey: 'sell-key-0001' }))).toBe(
      'REQUEST_CONFLICT',
    );
    expect(await h.prisma.dealCommand.count()).toBe(2);
    expect(sandboxTrades(h).filter((t) => !t.isBuyer)).toHaveLength(2);
    await expectFillsAreTrades(h);
  });
});
