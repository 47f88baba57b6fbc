import { type SandboxExchangeHandle, startSandboxExchange } from '@gridbot/sandbox';
import { reconcileCoinBot } from '@gridbot/services';
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

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
        // The test crosses each order once and expects it filled: whole fills (apps/sandbox liquidity).
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

describe('POST /portfolio/setting/delete', () => {
  it('cancels resting orders, leaves the lots on the exchange, keeps every PnL figure, and the coin can come back', async () => {
    const user = await t.createUser({ username: 'remover', feeBalance: '100' });
    const headers = await t.authHeader(user);
    const keys = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    await t.app.inject({
      method: 'POST',
      url: '/profile/api_key',
      headers,
      payload: { apiKey: keys.apiKey, secretKey: keys.secret },
    });
    expect(
      (await t.app.inject({ method: 'POST', url: '/portfolio/add_coin/add?data_send=XRP', headers }))
        .statusCode,
    ).toBe(200);
    const bot = await t.prisma.coinBot.findFirstOrThrow({ where: { userId: user.id } });
    await t.prisma.coinBot.update({ where: { id: bot.id }, data: { running: true } });
    const reconcile = async () =>
      expect((await reconcileCoinBot(t.ctx, { coinBotId: bot.id })).status).toBe('done');
    await reconcile();
    sandbox.control.setPrice('XRP/USDT', '0.99');
    await reconcile();
    sandbox.control.setPrice('XRP/USDT', '1');
    await reconcile();
    const pnlBefore = await t.prisma.dailyPnl.findMany({ where: { userId: user.id } });
    expect(pnlBefore).toHaveLength(1);
    const openLot = await t.prisma.lot.findFirstOrThrow({ where: { coinBotId: bot.id, closedAt: null } });
    const client = await t.ctx.exchanges.forAccount(bot.exchangeAccountId);
    expect(await client.fetchOpenOrders('XRP/USDT')).toHaveLength(2);

    const res = await t.app.inject({
      method: 'POST',
      url: '/portfolio/setting/delete?data_send=XRP',
      headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      coin: 'XRP',
      cancelledOrders: 2,
      leftOnExchange: { lots: 1, quantity: new Decimal(openLot.qty.toString()).toFixed() },
    });
    expect(await client.fetchOpenOrders('XRP/USDT')).toEqual([]);
    expect((await client.fetchBalance()).XRP?.total.gt(0)).toBe(true);
    expect(await t.prisma.dailyPnl.findMany({ where: { userId: user.id } })).toEqual(pnlBefore);
    expect(await t.prisma.coinActivity.count({ where: { coinBotId: bot.id, kind: 'coin_removed' } })).toBe(1);
    expect((await t.app.inject({ method: 'POST', url: '/portfolio/', headers })).json().coins).toEqual([]);
    expect(
      (await t.app.inject({ method: 'POST', url: '/portfolio/setting/delete?data_send=XRP', headers }))
        .statusCode,
    ).toBe(404);

    const again = await t.app.inject({
      method: 'POST',
      url: '/portfolio/add_coin/add?data_send=XRP',
      headers,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().coin).toMatchObject({ state: 'paused', stats: { openDeals: 0, realizedPnl: '0' } });
    expect(again.json().coin.coinUserId).not.toBe(bot.id);
    expect(await t.prisma.dailyPnl.findMany({ where: { userId: user.id } })).toEqual(pnlBefore);
  });

  it("refuses a coin that is not in the user's portfolio", async () => {
    const user = await t.createUser({ username: 'remover_none' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/portfolio/setting/delete?data_send=XRP',
      headers: await t.authHeader(user),
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('COIN_NOT_FOUND');
  });
});
