import type { User } from '@gridbot/db';
import { type SandboxExchangeHandle, startSandboxExchange } from '@gridbot/sandbox';
import { reconcileCoinBot } from '@gridbot/services';
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

let sandbox: SandboxExchangeHandle;
let t: TestApp;

const market = (base: string, price: string, minNotional = '5') => ({
  base,
  quote: 'USDT',
  tickSize: '0.0001',
  stepSize: '0.01',
  minNotional,
  feed: { kind: 'fixed' as const, price },
  // The test crosses each order once and expects it filled: whole fills (apps/sandbox liquidity).
  liquidity: 'infinite' as const,
});

beforeAll(async () => {
  sandbox = await startSandboxExchange({
    port: 0,
    tickMs: 0,
    // PEPE's minimum order (20 USDT) is above the contract's own lower bound (6) and the default 10.
    markets: [market('XRP', '1'), market('PEPE', '0.01', '20')],
  });
  t = await createTestApp({}, { sandboxUrl: sandbox.url });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

type Headers = Record<string, string>;

const trader = async (username: string, coins: string[]): Promise<{ user: User; headers: Headers }> => {
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
  for (const coin of coins) {
    const added = await t.app.inject({
      method: 'POST',
      url: `/portfolio/add_coin/add?data_send=${coin}`,
      headers,
    });
    expect(added.statusCode).toBe(200);
  }
  return { user, headers };
};

const edit = (headers: Headers, body: object) =>
  t.app.inject({ method: 'POST', url: '/portfolio/setting/edit', headers, payload: body });

const settings = { orderSize: '20', stepPct: '2', stepIncreasePct: '0.5', maxTrades: 5, dry: false };

describe('POST /portfolio/setting/edit', () => {
  it('previews the re-planned ladder without saving anything', async () => {
    const { user, headers } = await trader('edit_preview', ['XRP']);
    const res = await edit(headers, { coin: 'XRP', ...settings, preview: true });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.saved).toBe(false);
    expect(body.coin.settings).toMatchObject({ orderSize: '10', stepPct: '1', maxTrades: 10 });
    // No lot yet: the entry is assumed at the last price (1), then 4 levels 2 %, 2.5 %, 3 %, 3.5 % lower,
    // each sent on the tick (0.0001) and the next one below the price sent: 0.926835 goes out at
    // 0.9268, and 0.9268 × 0.965 = 0.894362 at 0.8944.
    expect(body.ladder.buys.map((b: { price: string }) => b.price)).toEqual([
      '0.98',
      '0.9555',
      '0.9268',
      '0.8944',
    ]);
    const deepest = new Decimal('0.8944');
    expect(body.ladder.coverageDropPct).toBe(
      new Decimal(1).minus(deepest).times(100).toDecimalPlaces(2).toFixed(),
    );
    // 5 buys of 20 USDT with the 0.1 % fee in each lot's cost.
    expect(new Decimal(body.ladder.capitalAtLimit).toNumber()).toBeCloseTo(100.1, 6);
    const bot = await t.prisma.coinBot.findFirstOrThrow({ where: { userId: user.id } });
    expect(bot.orderSize.toFixed()).toBe('10');
    expect(
      await t.prisma.coinActivity.count({ where: { coinBotId: bot.id, kind: 'settings_changed' } }),
    ).toBe(0);
  });

  it('saves, logs the change, and the next reconcile replaces the resting orders of open deals', async () => {
    sandbox.control.setPrice('XRP/USDT', '1');
    const { user, headers } = await trader('edit_save', ['XRP']);
    const bot = await t.prisma.coinBot.findFirstOrThrow({ where: { userId: user.id } });
    await t.prisma.coinBot.update({ where: { id: bot.id }, data: { running: true, startedAt: new Date() } });
    expect((await reconcileCoinBot(t.ctx, { coinBotId: bot.id })).status).toBe('done');
    const client = await t.ctx.exchanges.forAccount(bot.exchangeAccountId);
    const prices = async () =>
      (await client.fetchOpenOrders('XRP/USDT'))
        .map((o) => `${o.side}@${new Decimal(o.price ?? 0).toFixed()}`)
        .sort();
    expect(await prices()).toEqual(['buy@0.99', 'sell@1.01']);

    const res = await edit(headers, { coin: 'XRP', ...settings });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      saved: true,
      coin: { settings: { orderSize: '20', stepPct: '2', maxTrades: 5 } },
    });
    const log = await t.prisma.coinActivity.findFirstOrThrow({
      where: { coinBotId: bot.id, kind: 'settings_changed' },
    });
    expect(log).toMatchObject({ actor: 'user', userId: user.id });
    expect(log.data).toMatchObject({ from: { stepPct: '1' }, to: { stepPct: '2' } });

    expect((await reconcileCoinBot(t.ctx, { coinBotId: bot.id })).status).toBe('done');
    expect(await prices()).toEqual(['buy@0.98', 'sell@1.02']);
  });

  it('refuses an order below the exchange minimum, beyond the licence balance limit, or too deep a ladder', async () => {
    const { user, headers } = await trader('edit_refused', ['PEPE', 'XRP']);
    const low = await edit(headers, { coin: 'PEPE', ...settings, orderSize: '10' });
    expect(low.statusCode).toBe(422);
    expect(low.json().code).toBe('ORDER_BELOW_EXCHANGE_MIN');
    expect(
      (await edit(headers, { coin: 'PEPE', ...settings, orderSize: '10', preview: true })).json().code,
    ).toBe('ORDER_BELOW_EXCHANGE_MIN');

    // FREE: 300 USDT. XRP keeps 10 × 10 = 100, so PEPE may commit at most 200.
    const over = await edit(headers, { coin: 'PEPE', ...settings, orderSize: '41', maxTrades: 5 });
    expect(over.statusCode).toBe(422);
    expect(over.json().code).toBe('LICENSE_BALANCE_LIMIT');
    expect(
      (await edit(headers, { coin: 'PEPE', ...settings, orderSize: '40', maxTrades: 5 })).statusCode,
    ).toBe(200);

    const deep = await edit(headers, {
      coin: 'XRP',
      ...settings,
      stepPct: '10',
      stepIncreasePct: '10',
      maxTrades: 20,
    });
    expect(deep.statusCode).toBe(400);
    expect(deep.json().code).toBe('VALIDATION');
    const tiny = await edit(headers, { coin: 'XRP', ...settings, orderSize: '5' });
    expect(tiny.statusCode).toBe(400);

    const xrp = await t.prisma.coinBot.findFirstOrThrow({ where: { userId: user.id, coin: 'XRP' } });
    expect(xrp.orderSize.toFixed()).toBe('10');
  });

  it("refuses a coin that is not in the user's portfolio", async () => {
    await trader('edit_owner', ['XRP']);
    const { headers } = await trader('edit_other', []);
    const res = await edit(headers, { coin: 'XRP', ...settings });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('COIN_NOT_FOUND');
  });
});

describe('POST /portfolio/setting/reset_setting', () => {
  it('puts the defaults back and logs it', async () => {
    const { user, headers } = await trader('reset', ['XRP']);
    expect((await edit(headers, { coin: 'XRP', ...settings, dry: true })).statusCode).toBe(200);
    const res = await t.app.inject({
      method: 'POST',
      url: '/portfolio/setting/reset_setting',
      headers,
      payload: { coin: 'XRP' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      saved: true,
      coin: {
        settings: { orderSize: '10', stepPct: '1', stepIncreasePct: '0.1', maxTrades: 10, dry: false },
      },
    });
    const bot = await t.prisma.coinBot.findFirstOrThrow({ where: { userId: user.id } });
    expect(await t.prisma.coinActivity.count({ where: { coinBotId: bot.id, kind: 'settings_reset' } })).toBe(
      1,
    );
    const missing = await t.app.inject({
      method: 'POST',
      url: '/portfolio/setting/reset_setting',
      headers,
      payload: { coin: 'SOL' },
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('GET /portfolio/activity', () => {
  it("logs what the engine did, the exchange's refusals and the user's actions, newest first, in pages", async () => {
    sandbox.control.setPrice('XRP/USDT', '1');
    const { user, headers } = await trader('activity', ['XRP', 'PEPE']);
    const bots = await t.prisma.coinBot.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' } });
    const [xrp, pepe] = bots as [(typeof bots)[0], (typeof bots)[0]];
    await t.prisma.coinBot.updateMany({ where: { userId: user.id }, data: { running: true } });
    expect((await reconcileCoinBot(t.ctx, { coinBotId: xrp.id, reason: 'restart' })).status).toBe('done');
    // PEPE's minimum order is 20 USDT: the 10 USDT entry is refused by the exchange.
    await reconcileCoinBot(t.ctx, { coinBotId: pepe.id });

    const log = async (id: number, query = '') => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/portfolio/activity?coin_user_id=${id}${query}`,
        headers,
      });
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    const all = await log(xrp.id);
    const kinds = all.data.map((e: { kind: string }) => e.kind);
    expect(kinds[0]).toBe('restart_summary');
    expect(kinds.at(-1)).toBe('coin_added');
    expect(kinds.filter((k: string) => k === 'order_placed')).toHaveLength(3);
    expect(kinds).toContain('order_filled');
    expect(all.data[0]).toMatchObject({ actor: 'engine', data: { filled: 1, placed: 3 } });
    expect(all.nextCursor).toBeNull();

    const first = await log(xrp.id, '&limit=2');
    expect(first.data).toHaveLength(2);
    const second = await log(xrp.id, `&limit=2&cursor=${first.nextCursor}`);
    expect(second.data[0].id).toBe(all.data[2].id);

    const refused = (await log(pepe.id)).data.find((e: { kind: string }) => e.kind === 'order_rejected');
    expect(refused).toMatchObject({ actor: 'exchange', data: { key: 'entry:1', side: 'buy' } });
    expect(refused.data.code).toMatch(/ORDER_BELOW_EXCHANGE_MIN|ORDER_REJECTED/);
    expect(refused.data.message.length).toBeGreaterThan(0);
    // The exchange's own code comes with its message (Binance's filter failure is -1013).
    expect(refused.data.exchangeCode).toBe('-1013');
    // Its message is the exchange's own sentence, not the client library's wrapping of the body.
    expect(refused.data.message).toMatch(/^Filter failure: /);

    const other = await trader('activity_other', []);
    const res = await t.app.inject({
      method: 'GET',
      url: `/portfolio/activity?coin_user_id=${xrp.id}`,
      headers: other.headers,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('COIN_NOT_FOUND');
  });
});
