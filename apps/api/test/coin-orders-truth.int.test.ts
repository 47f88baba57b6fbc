import { type SandboxExchangeHandle, startSandboxExchange } from '@gridbot/sandbox';
import { reconcileCoinBot } from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traderWithKeys } from './support/sandbox-trader';
import { createTestApp, type TestApp } from './support/test-app';

// What the screens say about the coin's orders on the exchange (docs/grid.md#on-the-exchange):
// each planned take profit and buy is resting, being placed, refused (with the exchange's reason)
// or missing, from the engine's records; a coin whose plan is not on the book carries a warning
// on the coin page, the portfolio and the panel. The states are made by the sandbox exchange.
let sandbox: SandboxExchangeHandle;
let t: TestApp;

beforeAll(async () => {
  sandbox = await startSandboxExchange({
    port: 0,
    tickMs: 0,
    markets: [
      {
        base: 'XRP',
        quote: 'USDT',
        tickSize: '0.0001',
        stepSize: '0.01',
        minNotional: '5',
        feed: { kind: 'fixed', price: '1' },
        // Each order crossed once fills whole (apps/sandbox liquidity).
        liquidity: 'infinite',
      },
    ],
  });
  t = await createTestApp({}, { sandboxUrl: sandbox.url });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

type Headers = Record<string, string>;
type OnBook = { state: string; refusal: Record<string, unknown> | null } | null;
type TakeProfit = { lotId: string; lotNumber: number; resting: boolean; onBook: OnBook };

const post = async (headers: Headers, url: string) => {
  const res = await t.app.inject({ method: 'POST', url, headers });
  expect(res.statusCode).toBe(200);
  return res.json();
};
const coinPage = (headers: Headers) => post(headers, '/portfolio/XRP');

/** The take profits of the coin page by lot number. */
const takeProfitsOf = (ladder: { takeProfits: TakeProfit[] }) =>
  Object.fromEntries(ladder.takeProfits.map((tp) => [tp.lotNumber, tp]));

const counts = (
  planned: number,
  states: Partial<Record<'resting' | 'placing' | 'refused' | 'missing', number>>,
) => ({
  planned,
  resting: 0,
  placing: 0,
  refused: 0,
  missing: 0,
  ...states,
});

describe('the coin page shows what is really on the exchange', () => {
  it('each take profit and buy: resting, refused with the reason, being placed, missing; the warning on every screen', async () => {
    sandbox.control.setPrice('XRP/USDT', '1');
    const { user, headers, keys } = await traderWithKeys(t, sandbox, 'truth_trader');
    expect(
      (await t.app.inject({ method: 'POST', url: '/portfolio/add_coin/add?data_send=XRP', headers }))
        .statusCode,
    ).toBe(200);
    const bot = await t.prisma.coinBot.findFirstOrThrow({ where: { userId: user.id, coin: 'XRP' } });
    await t.prisma.coinBot.update({
      where: { id: bot.id },
      data: { running: true, startedAt: new Date(), maxTrades: 3 },
    });
    const reconcile = async (options: { rejectBackoffMs?: number } = {}) =>
      expect((await reconcileCoinBot(t.ctx, { coinBotId: bot.id, ...options })).status).toBe('done');
    await reconcile(); // entry: lot 1 at 1
    sandbox.control.setPrice('XRP/USDT', '0.99'); // the averaging buy opens lot 2
    await reconcile();

    // 1. Everything rests: lot numbers are the lots' own numbers, the same in the grid and the deals.
    let page = await coinPage(headers);
    expect(page.coin.book).toEqual({
      status: 'on_book',
      takeProfits: counts(2, { resting: 2 }),
      buys: counts(1, { resting: 1 }),
    });
    let tps = takeProfitsOf(page.ladder);
    expect(Object.keys(tps)).toEqual(['1', '2']);
    expect(tps[2]).toMatchObject({ resting: true, onBook: { state: 'resting', refusal: null } });
    // The next buy opens lot 3, the third deal of the purchase limit.
    expect(page.ladder.buys[0]).toMatchObject({
      lotNumber: 3,
      position: 3,
      resting: true,
      onBook: { state: 'resting' },
    });
    expect(page.ladder.buys).toHaveLength(1);

    // 2. The trader cancels lot 2's take profit on the exchange and moves its coin away: the engine
    //    places it again and the exchange refuses it; the reason is the exchange's, in our terms.
    const tp2 = await t.prisma.order.findFirstOrThrow({
      where: { coinBotId: bot.id, key: 'tp:2', status: 'open' },
    });
    sandbox.control.cancelOrder(keys.apiKey, 'XRP/USDT', tp2.clientOrderId);
    sandbox.control.setBalances(keys.apiKey, { XRP: '0' });
    await reconcile();
    page = await coinPage(headers);
    const refusedBook = {
      status: 'off_book',
      takeProfits: counts(2, { resting: 1, refused: 1 }),
      buys: counts(1, { resting: 1 }),
    };
    expect(page.coin.book).toEqual(refusedBook);
    tps = takeProfitsOf(page.ladder);
    expect(tps[1]).toMatchObject({ resting: true, onBook: { state: 'resting' } });
    expect(tps[2]).toMatchObject({
      resting: false,
      onBook: {
        state: 'refused',
        refusal: {
          reason: 'insufficient_balance',
          code: 'EXCHANGE_INSUFFICIENT_BALANCE',
          // Binance's code and words, as the adapter reports them (ccxt throws the words alone).
          exchangeCode: '-2010',
          message: 'Account has insufficient balance for requested action.',
        },
      },
    });
    const list = await post(headers, '/portfolio/?period=day');
    expect(list.coins[0].book).toEqual(refusedBook);
    // The deals name each lot as the grid does, and say where its take profit stands.
    const deals = await post(headers, `/portfolio/trades?coin_user_id=${bot.id}&status=open`);
    type DealRow = { lotId: string; lotNumber: number; takeProfitOnBook: OnBook };
    expect(deals.data.map((d: DealRow) => [d.lotId, d.lotNumber, d.takeProfitOnBook?.state])).toEqual([
      [tps[2]!.lotId, 2, 'refused'],
      [tps[1]!.lotId, 1, 'resting'],
    ]);

    // 3. The coin is back: while the exchange has not acknowledged the new take profit, it is being
    //    placed (no warning); once it answers, it rests.
    sandbox.control.setBalances(keys.apiKey, { XRP: '100' });
    sandbox.control.failNextOrderResponse({ kind: 'delay', delayMs: 1500 });
    const placing = reconcileCoinBot(t.ctx, { coinBotId: bot.id, rejectBackoffMs: 0 });
    while (
      (await t.prisma.order.findFirst({ where: { coinBotId: bot.id, key: 'tp:2' }, orderBy: { id: 'desc' } }))
        ?.status !== 'pending'
    ) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    page = await coinPage(headers);
    expect(takeProfitsOf(page.ladder)[2]).toMatchObject({
      resting: false,
      onBook: { state: 'placing', refusal: null },
    });
    expect(page.coin.book).toMatchObject({
      status: 'placing',
      takeProfits: counts(2, { resting: 1, placing: 1 }),
    });
    expect((await placing).status).toBe('done');
    expect((await coinPage(headers)).coin.book.status).toBe('on_book');

    // 4. Paused (the engine cancels the ladder), the purchase limit lowered to the open lots and
    //    started again: until the engine places them, every take profit is missing, and the coin
    //    that waits for a sell says its take profits are not on the exchange — on every screen.
    const mode = (status: string) =>
      t.app.inject({
        method: 'GET',
        url: `/portfolio/set_coin_status?coin_name=XRP&status=${status}`,
        headers,
      });
    expect((await mode('paused')).statusCode).toBe(200);
    await reconcile();
    page = await coinPage(headers);
    expect(page.coin.book.status).toBe('none');
    expect(page.ladder.takeProfits.every((tp: TakeProfit) => tp.onBook === null && !tp.resting)).toBe(true);
    await t.prisma.coinBot.update({ where: { id: bot.id }, data: { maxTrades: 2 } });
    expect((await mode('active')).statusCode).toBe(200);
    const missingBook = { status: 'off_book', takeProfits: counts(2, { missing: 2 }), buys: counts(0, {}) };
    page = await coinPage(headers);
    expect(page.coin).toMatchObject({ state: 'waiting', book: missingBook });
    expect(page.ladder.waiting).toBe(true);
    expect(page.ladder.takeProfits.map((tp: TakeProfit) => tp.onBook?.state)).toEqual(['missing', 'missing']);
    expect((await post(headers, '/portfolio/?period=day')).coins[0]).toMatchObject({
      state: 'waiting',
      book: missingBook,
    });
    const panel = await post(headers, '/home/');
    expect(panel.coins[0]).toMatchObject({ coin: 'XRP', state: 'waiting', book: missingBook });
  }, 60_000);
});
