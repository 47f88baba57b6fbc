import { type SandboxExchangeHandle, startSandboxExchange } from '@gridbot/sandbox';
import { reconcileCoinBot } from '@gridbot/services';
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

/*
 * The coin screens' prices and quantities at the market's tick and lot step
 * (docs/conventions.md#money-and-numbers): every coin answer carries the market's PRICE_FILTER
 * tickSize and LOT_SIZE stepSize, and a planned order is the one the engine sends — its price on
 * the tick, its quantity truncated to the step (Binance spot API docs, filters.md#price_filter,
 * filters.md#lot_size) — against the sandbox exchange over HTTP (ccxt reads its exchangeInfo as
 * Binance's).
 */

const TICK = '0.01';
const STEP = '0.0001';

let sandbox: SandboxExchangeHandle;
let t: TestApp;

beforeAll(async () => {
  sandbox = await startSandboxExchange({
    port: 0,
    tickMs: 0,
    markets: [
      {
        base: 'ETH',
        quote: 'USDT',
        tickSize: TICK,
        stepSize: STEP,
        minNotional: '5',
        feed: { kind: 'fixed' as const, price: '3455.97' },
        liquidity: 'infinite' as const,
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
type Buy = { lotNumber: number; price: string; quantity: string; stepPct: string };

const trader = async (username: string) => {
  const user = await t.createUser({ username, feeBalance: '100' });
  const headers = await t.authHeader(user);
  const keys = sandbox.control.createAccount({ balances: { USDT: '1000' } });
  const saved = await t.app.inject({
    method: 'POST',
    url: '/profile/api_key',
    headers,
    payload: { apiKey: keys.apiKey, secretKey: keys.secret },
  });
  expect(saved.statusCode).toBe(200);
  const added = await t.app.inject({ method: 'POST', url: '/portfolio/add_coin/add?data_send=ETH', headers });
  expect(added.statusCode).toBe(200);
  const bot = await t.prisma.coinBot.findFirstOrThrow({ where: { userId: user.id, coin: 'ETH' } });
  return { headers, botId: bot.id };
};

const coinPage = async (headers: Headers) => {
  const res = await t.app.inject({ method: 'POST', url: '/portfolio/ETH?period=day', headers });
  expect(res.statusCode).toBe(200);
  return res.json();
};

/** A multiple of `step`, written without digits past the step's. */
const onStep = (value: string, step: string) => {
  expect(new Decimal(value).mod(step).isZero(), `${value} on ${step}`).toBe(true);
  expect(value.split('.')[1]?.length ?? 0).toBeLessThanOrEqual(step.split('.')[1]!.length);
};

describe('the coin answers carry the market tick and lot step', () => {
  it('the settings preview shows every level on the tick, each following from the one sent before', async () => {
    sandbox.control.setPrice('ETH/USDT', '3455.97');
    const { headers } = await trader('tick_preview');
    const res = await t.app.inject({
      method: 'POST',
      url: '/portfolio/setting/edit',
      headers,
      payload: {
        coin: 'ETH',
        orderSize: '25',
        stepPct: '1.3',
        stepIncreasePct: '0.2',
        maxTrades: 5,
        dry: false,
        preview: true,
      },
    });
    expect(res.statusCode).toBe(200);
    const { coin, ladder } = res.json();
    expect(coin).toMatchObject({ lastPrice: '3455.97', priceTick: TICK, qtyStep: STEP });
    expect(ladder).toMatchObject({ priceTick: TICK, qtyStep: STEP });
    // 3455.97 × (1 − 1.3 %) = 3411.04239 is sent as 3411.04, for 25 / 3411.04 = 0.007329… ETH → 0.0073.
    expect(ladder.buys[0]).toMatchObject({ lotNumber: 2, price: '3411.04', quantity: '0.0073' });
    // The next level follows from 3411.04, not from the planner's 3411.04239.
    expect(ladder.buys[1]).toMatchObject({ lotNumber: 3, price: '3359.87', quantity: '0.0074' });
    let previous = new Decimal('3455.97');
    for (const buy of ladder.buys as Buy[]) {
      onStep(buy.price, TICK);
      onStep(buy.quantity, STEP);
      const planned = previous.times(new Decimal(1).minus(new Decimal(buy.stepPct).div(100)));
      expect(buy.price).toBe(planned.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed());
      expect(buy.quantity).toBe(
        new Decimal(25).div(buy.price).toDecimalPlaces(4, Decimal.ROUND_DOWN).toFixed(),
      );
      previous = new Decimal(buy.price);
    }

    const page = await coinPage(headers);
    expect(page.coin).toMatchObject({ priceTick: TICK, qtyStep: STEP });
    expect(page.ladder).toMatchObject({ priceTick: TICK, qtyStep: STEP });
    const addable = await t.app.inject({ method: 'GET', url: '/portfolio/add_coin?search=ETH', headers });
    expect(addable.json().coins[0]).toMatchObject({ coin: 'ETH', lastPrice: '3455.97', priceTick: TICK });
  });

  it('the coin page and its deals show the orders exactly as the engine sent them', async () => {
    sandbox.control.setPrice('ETH/USDT', '3455.97');
    const { headers, botId } = await trader('tick_running');
    await t.prisma.coinBot.update({ where: { id: botId }, data: { running: true, startedAt: new Date() } });
    // The entry fills at 3455.97; then its take profit and the next buy rest.
    expect((await reconcileCoinBot(t.ctx, { coinBotId: botId })).status).toBe('done');
    const resting = await t.prisma.order.findMany({ where: { coinBotId: botId, status: 'open' } });
    const sell = resting.find((o) => o.side === 'sell')!;
    const buy = resting.find((o) => o.side === 'buy')!;
    // 3455.97 × 1.01 = 3490.5297 and × 0.99 = 3421.4103: the exchange holds them on the tick.
    expect(new Decimal(sell.price!).toFixed()).toBe('3490.53');
    expect(new Decimal(buy.price!).toFixed()).toBe('3421.41');

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
    expect(deals.json().data).toEqual([expect.objectContaining({ takeProfitPrice: '3490.53' })]);
    const paused = await coinPage(headers);
    expect(paused.ladder.takeProfits).toEqual([
      expect.objectContaining({ price: '3490.53', resting: false }),
    ]);
  });
});
