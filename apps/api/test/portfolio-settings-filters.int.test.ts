import { type SandboxExchangeHandle, startSandboxExchange } from '@gridbot/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

/*
 * The market's filters the settings must respect (docs/grid.md#exchange-filters), through the API
 * against the sandbox exchange over HTTP (ccxt reads its exchangeInfo as it reads Binance's):
 * MAX_NUM_ORDERS 200 and PERCENT_PRICE_BY_SIDE ×0.2 … ×5, as Binance lists them for XRPUSDT.
 */

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
        feed: { kind: 'fixed' as const, price: '1' },
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
