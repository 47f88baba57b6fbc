import { setTimeout as sleep } from 'node:timers/promises';
import { getPortfolioCoin } from '@gridbot/services';
import { afterEach, describe, expect, it } from 'vitest';
import { createGridHarness, type Harness } from './support/grid-harness';

// Binance as it really behaves (docs/grid.md#markets-change, #clock): the host clock steps, a
// market's tick changes, a symbol stops trading, a symbol is delisted, all while the worker runs.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ordersSent = (harness: Harness) => harness.sandbox.control.orders(harness.keys.apiKey, 'XRP/USDT');
const botRow = (harness: Harness) =>
  harness.prisma.coinBot.findUniqueOrThrow({ where: { id: harness.bot.id } });
const activity = (harness: Harness, kinds: string[]) =>
  harness.prisma.coinActivity.findMany({
    where: { coinBotId: harness.bot.id, kind: { in: kinds } },
    orderBy: { id: 'asc' },
  });

describe('a host clock that steps after the start', () => {
  it('reconcile passes still succeed: each -1021 re-measures the offset and the call is sent again', async () => {
    h = await createGridHarness();
    expect((await h.reconcile()).status).toBe('done');
    expect(await h.ladder()).toEqual(['buy@0.9900', 'sell@1.0100']);
    // The exchange's clock jumps 10 s ahead (our timestamps fall outside the 1 s recvWindow), then
    // 10 s behind (ours are ahead of it): open orders, order lookups, trades and placement all sign.
    for (const offsetMs of [10_000, -10_000]) {
      h.sandbox.control.skewClock(offsetMs);
      h.setPrice(offsetMs > 0 ? '0.99' : '1.0');
      const result = await h.reconcile();
      expect(result).toMatchObject({ status: 'done', filled: 1 });
      expect(result.error).toBeUndefined();
    }
    expect(await h.openLots()).toHaveLength(1);
    expect(await h.closedLots()).toHaveLength(1);
    expect((await botRow(h)).lastError).toBeNull();
  });
});

describe('a market whose tick changes', () => {
  it('an order refused on the old tick (-1013) is planned again on the new tick within the same reconcile', async () => {
    h = await createGridHarness();
    await h.reconcile();
    h.sandbox.control.setMarketFilters('XRPUSDT', { tickSize: '0.001' });
    // The buy at 0.99 fills: the next take profit (0.9999) and buy (0.9791) are off the new grid.
    h.setPrice('0.99');
    const result = await h.reconcile();
    expect(result.status).toBe('done');
    expect(result.error).toBeUndefined();
    expect(await h.ladder()).toEqual(['buy@0.9790', 'sell@1.0000', 'sell@1.0100']);
    const refused = await activity(h, ['order_rejected']);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]?.data).toMatchObject({
      exchangeCode: '-1013',
      message: 'Filter failure: PRICE_FILTER',
    });
    expect((await botRow(h)).lastError).toBeNull();
  });
});

describe('a market that stops trading', () => {
  it('HALT: the coin waits (nothing sent, no error), the coin page says why, one log entry each way', async () => {
    h = await createGridHarness({ marketsTtlMs: 200 });
    await h.reconcile();
    const sent = ordersSent(h).length;
    h.sandbox.control.setMarketStatus('XRPUSDT', 'HALT');
    await sleep(250);
    for (let pass = 0; pass < 3; pass += 1) {
      const result = await h.reconcile();
      expect(result).toMatchObject({ status: 'done', placed: 0, canceled: 0 });
      expect(result.error).toBeUndefined();
    }
    expect(ordersSent(h)).toHaveLength(sent);
    const waiting = await botRow(h);
    expect(waiting).toMatchObject({ marketStatus: 'HALT', lastError: null });
    const page = await getPortfolioCoin(h.contextFor(), { userId: h.bot.userId, coin: 'XRP', period: 'day' });
    expect(page.coin.marketClosed).toEqual({ status: 'HALT', since: waiting.marketStatusAt?.toISOString() });
    expect(page.coin.lastError).toBeNull();
    expect((await activity(h, ['market_closed', 'market_reopened'])).map((a) => [a.kind, a.data])).toEqual([
      ['market_closed', { symbol: 'XRP/USDT', status: 'HALT' }],
    ]);

    h.sandbox.control.setMarketStatus('XRPUSDT', 'TRADING');
    await sleep(250);
    h.setPrice('0.99');
    expect(await h.reconcile()).toMatchObject({ status: 'done', filled: 1 });
    await h.reconcile();
    expect(await h.ladder()).toEqual(['buy@0.9791', 'sell@0.9999', 'sell@1.0100']);
    expect((await botRow(h)).marketStatus).toBeNull();
    const page2 = await getPortfolioCoin(h.contextFor(), {
      userId: h.bot.userId,
      coin: 'XRP',
      period: 'day',
    });
    expect(page2.coin.marketClosed).toBeNull();
    expect((await activity(h, ['market_closed', 'market_reopened'])).map((a) => a.kind)).toEqual([
      'market_closed',
      'market_reopened',
    ]);
  });

  it('BREAK noticed from a refusal ("Market is closed."): the coin waits at once, without an error', async () => {
    h = await createGridHarness();
    await h.reconcile();
    h.sandbox.control.setMarketStatus('XRPUSDT', 'BREAK');
    // An order the plan wants now (the take profit was cancelled on the exchange's side).
    const client = await h.clients.forAccount(h.account.id);
    const tp = (await h.openOnExchange()).find((o) => o.side === 'sell')!;
    await client.cancelOrder('XRP/USDT', { id: tp.id });
    const result = await h.reconcile();
    expect(result.error).toBeUndefined();
    expect(await botRow(h)).toMatchObject({ marketStatus: 'BREAK', lastError: null });
    expect((await activity(h, ['market_closed'])).map((a) => a.data)).toEqual([
      { symbol: 'XRP/USDT', status: 'BREAK' },
    ]);
  });
});

describe('a delisted market', () => {
  it('becomes a COIN_NOT_LISTED coin error with one notice to the user, and reconcile stops throwing', async () => {
    h = await createGridHarness();
    await h.reconcile();
    h.sandbox.control.delistMarket('XRPUSDT');
    for (let pass = 0; pass < 3; pass += 1) {
      expect(await h.reconcile()).toMatchObject({ status: 'done', error: 'COIN_NOT_LISTED' });
    }
    expect((await botRow(h)).lastError).toBe('COIN_NOT_LISTED');
    const told = await h.prisma.notification.findMany({
      where: { userId: h.bot.userId, kind: 'coin_bot_error' },
    });
    expect(told.map((n) => n.data)).toEqual([
      { coinBotId: h.bot.id, coin: 'XRP', symbol: 'XRP/USDT', code: 'COIN_NOT_LISTED' },
    ]);
    const page = await getPortfolioCoin(h.contextFor(), { userId: h.bot.userId, coin: 'XRP', period: 'day' });
    expect(page.coin).toMatchObject({ state: 'error', lastError: { code: 'COIN_NOT_LISTED' } });
  });
});
