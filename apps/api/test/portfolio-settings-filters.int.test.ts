import { type SandboxExchangeHandle, startSandboxExchange } from '@gridbot/sandbox';
import { reconcileCoinBot } from '@gridbot/services';
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

/*
 * The market's filters the settings must respect (docs/grid.md#exchange-filters), through the API
 * against the sandbox exchange over HTTP (ccxt reads its exchangeInfo as it reads Binance's):
 * MAX_NUM_ORDERS 200 and PERCENT_PRICE_BY_SIDE ×0.2 … ×5, as Binance lists them for XRPUSDT; and
 * the PRICE_FILTER tick (0.0001) and LOT_SIZE step (0.01) every coin answer carries, its planned
 * orders shown as the engine sends them (docs/conventions.md#money-and-numbers).
 */

const TICK = '0.0001';
const STEP = '0.01';

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
        tickSize: TICK,
        stepSize: STEP,
        minNotional: '5',
        feed: { kind: 'fixed' as const, price: '1' },
        // The tick test crosses its entry once and expects it filled: whole fills.
        liquidity: 'infinite' as const,
      },
    ],
  });
  // The tick tests move the price between calls: every coin answer reads the exchange's last price.
  t = await createTestApp({ LAST_PRICE_CACHE_MS: '0' }, { sandboxUrl: sandbox.url });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

type Headers = Record<string, string>;

const trader = async (username: string, language?: string) => {
  const user = await t.createUser({ username, feeBalance: '100' });
  if (language) {
    await t.prisma.userConfig.create({ data: { userId: user.id, name: 'localization', value: language } });
  }
  const headers = await t.authHeader(user);
  const keys = sandbox.control.createAccount({ balances: { USDT: '1000' } });
  const saved = await t.app.inject({
    method: 'POST',
    url: '/profile/api_key',
    headers,
    payload: { apiKey: keys.apiKey, secretKey: keys.secret },
  });
  expect(saved.statusCode).toBe(200);
  const added = await t.app.inject({ method: 'POST', url: '/portfolio/add_coin/add?data_send=XRP', headers });
  expect(added.statusCode).toBe(200);
  return { user, headers };
};

const edit = (headers: Headers, body: object) =>
  t.app.inject({ method: 'POST', url: '/portfolio/setting/edit', headers, payload: body });

const base = { coin: 'XRP', orderSize: '6', stepPct: '1', stepIncreasePct: '0.1', dry: false };

/** The coin's stored settings and what was logged or enqueued for it: a refused save changes none of it. */
const untouched = async (userId: number) => {
  const bot = await t.prisma.coinBot.findFirstOrThrow({ where: { userId, coin: 'XRP' } });
  const logged = await t.prisma.coinActivity.count({
    where: { coinBotId: bot.id, kind: 'settings_changed' },
  });
  return {
    settings: [bot.orderSize.toFixed(), bot.stepPct.toFixed(), bot.stepIncreasePct.toFixed(), bot.maxTrades],
    logged,
  };
};

describe('MAX_NUM_ORDERS caps the purchase limit (filters.md#max_num_orders)', () => {
  it('refuses a purchase limit of 250 at preview and save, with the message in the user language; 200 passes', async () => {
    const { user, headers } = await trader('filters_max_orders', 'ru');
    const before = await untouched(user.id);
    for (const preview of [true, false]) {
      const res = await edit(headers, { ...base, maxTrades: 250, preview });
      expect(res.statusCode).toBe(422);
      const body = res.json();
      expect(body.code).toBe('MAX_TRADES_ABOVE_EXCHANGE_LIMIT');
      expect(body.detail).toContain('Лимит покупок больше числа открытых ордеров');
      expect(body.issues).toEqual([
        { path: 'maxTrades', message: "at most 200 (the market's MAX_NUM_ORDERS)" },
      ]);
    }
    expect(await untouched(user.id)).toEqual(before);
    // 200 orders are what the market allows: 200 × 6 USDT is only the licence's to refuse.
    const at = await edit(headers, { ...base, maxTrades: 200, preview: true });
    expect(at.json().code).not.toBe('MAX_TRADES_ABOVE_EXCHANGE_LIMIT');
  });
});

describe('PERCENT_PRICE_BY_SIDE bounds the deepest buy (filters.md#percent_price_by_side)', () => {
  const deep = { ...base, orderSize: '10', stepPct: '10', stepIncreasePct: '10', maxTrades: 10 };

  it('warns at preview with the ladder, refuses the save (4xx) and changes nothing', async () => {
    const { user, headers } = await trader('filters_deep_buy');
    const before = await untouched(user.id);
    const preview = await edit(headers, { ...deep, preview: true });
    expect(preview.statusCode).toBe(200);
    const body = preview.json();
    // Lot 10's buy would be 90 % below lot 9; Binance takes a buy down to 0.2 × the average price.
    expect(body.warnings).toEqual([
      { code: 'DEEPEST_BUY_BELOW_EXCHANGE_PRICE_LIMIT', lotNumber: 10, stepPct: '90', maxStepPct: '80' },
    ]);
    expect(body.ladder.buys).toHaveLength(9);
    expect(body.saved).toBe(false);

    const saved = await edit(headers, deep);
    expect(saved.statusCode).toBe(422);
    expect(saved.json().code).toBe('DEEPEST_BUY_BELOW_EXCHANGE_PRICE_LIMIT');
    expect(saved.json().detail).toContain('further below the market than this market accepts');
    expect(await untouched(user.id)).toEqual(before);

    // Nine lots reach 80 % at most: accepted, no warning.
    const nine = await edit(headers, { ...deep, maxTrades: 9, preview: true });
    expect(nine.statusCode).toBe(200);
    expect(nine.json().warnings).toEqual([]);
  });
});

const coinPage = async (headers: Headers) => {
  const res = await t.app.inject({ method: 'POST', url: '/portfolio/XRP?period=day', headers });
  expect(res.statusCode).toBe(200);
  return res.json();
};

type Buy = { lotNumber: number; price: string; quantity: string; stepPct: string };

/** A multiple of `step`, written without digits past the step's. */
const onStep = (value: string, step: string) => {
  expect(new Decimal(value).mod(step).isZero(), `${value} on ${step}`).toBe(true);
  expect(value.split('.')[1]?.length ?? 0).toBeLessThanOrEqual(step.split('.')[1]!.length);
};

describe('PRICE_FILTER and LOT_SIZE: the coin answers carry the tick and lot step (filters.md#price_filter)', () => {
  it('the settings preview shows every level on the tick, each following from the one sent before', async () => {
    sandbox.control.setPrice('XRP/USDT', '1.3579');
    const { headers } = await trader('tick_preview');
    const res = await edit(headers, {
      ...base,
      orderSize: '25',
      stepPct: '1.3',
      stepIncreasePct: '0.2',
      maxTrades: 5,
      preview: true,
    });
    expect(res.statusCode).toBe(200);
    const { coin, ladder } = res.json();
    expect(coin).toMatchObject({ lastPrice: '1.3579', priceTick: TICK, qtyStep: STEP });
    expect(ladder).toMatchObject({ priceTick: TICK, qtyStep: STEP });
    // 1.3579 × (1 − 1.3 %) = 1.3402473 is sent as 1.3402, for 25 / 1.3402 = 18.6539… XRP → 18.65.
    expect(ladder.buys[0]).toMatchObject({ lotNumber: 2, price: '1.3402', quantity: '18.65' });
    // The next level follows from 1.3402 (→ 1.320097), not from the planner's 1.3402473 (→ 1.3201436).
    expect(ladder.buys[1]).toMatchObject({ lotNumber: 3, price: '1.3201', quantity: '18.93' });
    let previous = new Decimal('1.3579');
    for (const buy of ladder.buys as Buy[]) {
      onStep(buy.price, TICK);
      onStep(buy.quantity, STEP);
      const planned = previous.times(new Decimal(1).minus(new Decimal(buy.stepPct).div(100)));
      expect(buy.price).toBe(planned.toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toFixed());
      expect(buy.quantity).toBe(
        new Decimal(25).div(buy.price).toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed(),
      );
      previous = new Decimal(buy.price);
    }

    const page = await coinPage(headers);
    expect(page.coin).toMatchObject({ priceTick: TICK, qtyStep: STEP });
    expect(page.ladder).toMatchObject({ priceTick: TICK, qtyStep: STEP });
    const addable = await t.app.inject({ method: 'GET', url: '/portfolio/add_coin?search=XRP', headers });
    // (Its tickers are cached for 30 s: the price may be the one before.)
    expect(addable.json().coins[0]).toMatchObject({ coin: 'XRP', priceTick: TICK });
    sandbox.control.setPrice('XRP/USDT', '1');
  });

  it('the coin page and its deals show the orders exactly as the engine sent them', async () => {
    sandbox.control.setPrice('XRP/USDT', '1.3579');
    const { user, headers } = await trader('tick_running');
    const { id: botId } = await t.prisma.coinBot.findFirstOrThrow({ where: { userId: user.id } });
    await t.prisma.coinBot.update({ where: { id: botId }, data: { running: true, startedAt: new Date() } });
    // The entry fills at 1.3579; then its take profit and the next buy rest.
    expect((await reconcileCoinBot(t.ctx, { coinBotId: botId })).status).toBe('done');
    const resting = await t.prisma.order.findMany({ where: { coinBotId: botId, status: 'open' } });
    const sell = resting.find((o) => o.side === 'sell')!;
    const buy = resting.find((o) => o.side === 'buy')!;
    // 1.3579 × 1.01 = 1.371479 and × 0.99 = 1.344321: the exchange holds them on the tick.
    expect(new Decimal(sell.price!).toFixed()).toBe('1.3715');
    expect(new Decimal(buy.price!).toFixed()).toBe('1.3443');

    const { ladder } = await coinPage(headers);
    expect(ladder.takeProfits).toEqual([
      expect.objectContaining({
        price: new Decimal(sell.price!).toFixed(),
        quantity: new Decimal(sell.qty!).toFixed(),
        resting: true,
      }),
    ]);
    expect(ladder.buys[0]).toMatchObject({
      price: new Decimal(buy.price!).toFixed(),
      quantity: new Decimal(buy.qty!).toFixed(),
      resting: true,
    });
    for (const level of ladder.buys as Buy[]) {
      onStep(level.price, TICK);
      onStep(level.quantity, STEP);
    }

    // Paused: nothing rests, and the open deal's take profit is the one a start would send.
    await t.prisma.coinBot.update({ where: { id: botId }, data: { running: false } });
    expect((await reconcileCoinBot(t.ctx, { coinBotId: botId })).status).toBe('done');
    expect(await t.prisma.order.count({ where: { coinBotId: botId, status: 'open' } })).toBe(0);
    const deals = await t.app.inject({
      method: 'POST',
      url: `/portfolio/trades?coin_user_id=${botId}&status=open`,
      headers,
    });
    expect(deals.statusCode).toBe(200);
    expect(deals.json().data).toEqual([expect.objectContaining({ takeProfitPrice: '1.3715' })]);
    const paused = await coinPage(headers);
    expect(paused.ladder.takeProfits).toEqual([expect.objectContaining({ price: '1.3715', resting: false })]);
    sandbox.control.setPrice('XRP/USDT', '1');
  });
});
