import type { User } from '@gridbot/db';
import { type SandboxExchangeHandle, startSandboxExchange } from '@gridbot/sandbox';
import { reconcileCoinBot } from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

// The deal controls over HTTP (docs/grid.md#deal-controls): the quote, "sell now" with an
// Idempotency-Key, the pending state, every refusal with its catalogue code changing nothing, and
// concurrent or retried requests selling once. The engine's side: apps/worker/test/grid-deal-commands.

let sandbox: SandboxExchangeHandle;
let t: TestApp;

beforeAll(async () => {
  sandbox = await startSandboxExchange({
    port: 0,
    tickMs: 0,
    markets: ['XRP', 'ADA'].map((base) => ({
      base,
      quote: 'USDT',
      tickSize: '0.0001',
      stepSize: '0.1',
      minNotional: '5',
      feed: { kind: 'fixed' as const, price: '0.5' },
      liquidity: 'infinite' as const,
    })),
  });
  t = await createTestApp({}, { sandboxUrl: sandbox.url });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

type Trader = { user: User; headers: Record<string, string>; apiKey: string; botId: number };

/** A user with sandbox keys saved through the API and a running XRP coin bot holding its first lot. */
const trader = async (username: string, coin = 'XRP'): Promise<Trader> => {
  const user = await t.createUser({ username, feeBalance: '10' });
  const headers = await t.authHeader(user);
  const keys = sandbox.control.createAccount({ balances: { USDT: '1000' } });
  const saved = await t.app.inject({
    method: 'POST',
    url: '/profile/api_key',
    headers,
    payload: { apiKey: keys.apiKey, secretKey: keys.secret },
  });
  expect(saved.statusCode).toBe(200);
  const account = await t.prisma.exchangeAccount.findFirstOrThrow({ where: { userId: user.id } });
  const bot = await t.prisma.coinBot.create({
    data: {
      userId: user.id,
      exchangeAccountId: account.id,
      coin,
      symbol: `${coin}/USDT`,
      orderSize: '10',
      stepPct: '1',
      stepIncreasePct: '0.1',
      maxTrades: 3,
      running: true,
      startedAt: new Date(),
    },
  });
  expect((await reconcileCoinBot(t.ctx, { coinBotId: bot.id })).status).toBe('done');
  return { user, headers, apiKey: keys.apiKey, botId: bot.id };
};

type Answer = { statusCode: number; json: () => Record<string, unknown> & { code?: string } };

const send = (who: Trader, method: 'GET' | 'POST', url: string, key?: string): Promise<Answer> =>
  t.app.inject({ method, url, headers: { ...who.headers, ...(key ? { 'idempotency-key': key } : {}) } });

/** The calls allow one a second per user: a call the limiter turned away is sent again once it may. */
const served = async (call: () => Promise<Answer>): Promise<Answer> => {
  let answer = await call();
  if (answer.statusCode !== 429) return answer;
  await expect
    .poll(
      async () => {
        answer = await call();
        return answer.statusCode;
      },
      { timeout: 5000, interval: 250 },
    )
    .not.toBe(429);
  return answer;
};

const sells = (who: Trader) =>
  sandbox.control.trades(who.apiKey, 'XRP/USDT').filter((trade) => !trade.isBuyer);
const commands = (who: Trader) => t.prisma.dealCommand.count({ where: { userId: who.user.id } });
const restingOrders = (who: Trader) =>
  t.prisma.order.findMany({
    where: { coinBotId: who.botId, status: { in: ['pending', 'open'] } },
    select: { key: true, price: true },
    orderBy: { id: 'asc' },
  });

describe('sell one deal now', () => {
  it('quotes, records the command, shows it pending, sells once for a retried key and answers it done', {
    timeout: 60_000,
  }, async () => {
    const a = await trader('deal_happy');
    const quote = await send(a, 'GET', `/portfolio/deals/quote?coin_user_id=${a.botId}&lot=1`);
    expect(quote.statusCode).toBe(200);
    // 20 XRP bought for 10 USDT, the fee 0.02 XRP taken from them: 19.98, sent as 19.9 (lot step 0.1).
    expect(quote.json()).toMatchObject({
      coin: 'XRP',
      price: '0.5',
      priceSource: 'bid',
      feePct: '0.1',
      minNotional: '5',
      lots: [{ lotNumber: 1, quantity: '19.9', sellable: true, expectedProceeds: '9.94005' }],
    });

    const url = `/portfolio/deals/sell?coin_user_id=${a.botId}&lot=1`;
    const asked = await send(a, 'POST', url, 'deal-sell-0001');
    expect(asked.statusCode).toBe(200);
    const command = asked.json().command as { id: number; status: string; lots: number[] };
    expect(command).toMatchObject({ kind: 'sell_lot', status: 'pending', lots: [1], result: null });
    const listed = await served(() => send(a, 'GET', `/portfolio/deals/commands?coin_user_id=${a.botId}`));
    expect(listed.json()).toMatchObject({ commands: [{ id: command.id, status: 'pending' }] });

    // The answer was lost: the app sends the same request with the same key.
    const retried = await served(() => send(a, 'POST', url, 'deal-sell-0001'));
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ command: { id: command.id, status: 'pending' } });

    await reconcileCoinBot(t.ctx, { coinBotId: a.botId });
    const done = await served(() => send(a, 'POST', url, 'deal-sell-0001'));
    expect(done.json()).toMatchObject({
      command: {
        id: command.id,
        status: 'done',
        result: { lots: [{ lotNumber: 1, outcome: 'sold', quantity: '19.9' }] },
      },
    });
    expect(sells(a)).toHaveLength(1);
    expect(await commands(a)).toBe(1);
    const lot = await t.prisma.lot.findFirstOrThrow({ where: { coinBotId: a.botId, seq: 1 } });
    expect(lot.closedAt).not.toBeNull();

    // Without a key, the sold deal is refused; a key spent on it is refused for another request.
    const again = await served(() => send(a, 'POST', url));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'DEAL_ALREADY_SOLD', message: 'Deal already sold' });
    const other = await served(() =>
      send(a, 'POST', `/portfolio/deals/close_all?coin_user_id=${a.botId}`, 'deal-sell-0001'),
    );
    expect(other.json().code).toBe('REQUEST_CONFLICT');
    expect(sells(a)).toHaveLength(1);
  });

  it('two requests at once sell once', { timeout: 60_000 }, async () => {
    const a = await trader('deal_race');
    const url = `/portfolio/deals/sell?coin_user_id=${a.botId}&lot=1`;
    const both = await Promise.all([
      send(a, 'POST', url, 'deal-race-0001'),
      send(a, 'POST', url, 'deal-race-0002'),
    ]);
    const statuses = both.map((r) => r.statusCode).sort();
    expect(statuses[0]).toBe(200);
    // The second is the rate limit's or the pending command's refusal: either way, not a second sale.
    expect([409, 429]).toContain(statuses[1]);
    const second = await served(() => send(a, 'POST', url, 'deal-race-0003'));
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('DEAL_COMMAND_PENDING');
    expect(await commands(a)).toBe(1);
    await reconcileCoinBot(t.ctx, { coinBotId: a.botId });
    await reconcileCoinBot(t.ctx, { coinBotId: a.botId });
    expect(sells(a)).toHaveLength(1);
  });
});

describe('refusals change nothing', () => {
  it('answers each bad request with its catalogue code, recording and sending nothing', {
    timeout: 60_000,
  }, async () => {
    const a = await trader('deal_refused');
    const b = await trader('deal_other');
    const before = await restingOrders(a);
    const sent = sandbox.control.orders(a.apiKey, 'XRP/USDT').length;
    const refused = async (call: () => Promise<Answer>, status: number, code: string) => {
      const answer = await served(call);
      expect([answer.statusCode, answer.json().code]).toEqual([status, code]);
    };
    await refused(
      () => send(a, 'POST', `/portfolio/deals/sell?coin_user_id=${a.botId}&lot=abc`),
      400,
      'VALIDATION',
    );
    await refused(
      () => send(a, 'POST', `/portfolio/deals/sell?coin_user_id=${a.botId}&lot=9`),
      404,
      'DEAL_NOT_FOUND',
    );
    await refused(
      () => send(a, 'POST', `/portfolio/deals/sell?coin_user_id=${b.botId}&lot=1`),
      404,
      'COIN_NOT_FOUND',
    );
    await refused(
      () => send(a, 'GET', `/portfolio/deals/quote?coin_user_id=${b.botId}`),
      404,
      'COIN_NOT_FOUND',
    );

    // Below the market's minimum order at the current price (the exchange raised it).
    sandbox.control.setMarketFilters('XRPUSDT', { minNotional: '50' });
    const client = await t.ctx.exchanges.forAccount(
      (await t.prisma.coinBot.findUniqueOrThrow({ where: { id: a.botId } })).exchangeAccountId,
    );
    await client.loadMarkets(true);
    await refused(
      () => send(a, 'POST', `/portfolio/deals/sell?coin_user_id=${a.botId}&lot=1`),
      422,
      'DEAL_BELOW_EXCHANGE_MIN',
    );
    await refused(
      () => send(a, 'POST', `/portfolio/deals/close_all?coin_user_id=${a.botId}`),
      422,
      'DEAL_BELOW_EXCHANGE_MIN',
    );
    const quote = await served(() => send(a, 'GET', `/portfolio/deals/quote?coin_user_id=${a.botId}`));
    expect(quote.json()).toMatchObject({ minNotional: '50', lots: [{ sellable: false }] });
    sandbox.control.setMarketFilters('XRPUSDT', { minNotional: '5' });

    // The market halts: a clear message, nothing recorded.
    sandbox.control.setMarketStatus('XRPUSDT', 'HALT');
    await client.loadMarkets(true);
    await refused(
      () => send(a, 'POST', `/portfolio/deals/sell?coin_user_id=${a.botId}&lot=1`),
      422,
      'MARKET_CLOSED',
    );
    await refused(
      () => send(a, 'POST', `/portfolio/deals/cancel_buy?coin_user_id=${a.botId}`),
      422,
      'MARKET_CLOSED',
    );
    const halted = await served(() => send(a, 'POST', `/portfolio/deals/close_all?coin_user_id=${a.botId}`));
    expect(halted.json()).toMatchObject({
      code: 'MARKET_CLOSED',
      message: 'The market is not trading now',
    });
    sandbox.control.setMarketStatus('XRPUSDT', 'TRADING');
    await client.loadMarkets(true);

    // Keys the exchange refused at their last check.
    await t.prisma.exchangeAccount.updateMany({
      where: { userId: a.user.id },
      data: { checkProblem: 'API_KEY_INVALID' },
    });
    await refused(
      () => send(a, 'POST', `/portfolio/deals/sell?coin_user_id=${a.botId}&lot=1`),
      422,
      'API_KEY_INVALID',
    );
    await t.prisma.exchangeAccount.updateMany({ where: { userId: a.user.id }, data: { checkProblem: null } });

    // A paused coin has no pending buy.
    await t.prisma.coinBot.update({ where: { id: a.botId }, data: { running: false } });
    await reconcileCoinBot(t.ctx, { coinBotId: a.botId });
    await refused(
      () => send(a, 'POST', `/portfolio/deals/cancel_buy?coin_user_id=${a.botId}`),
      409,
      'NO_PENDING_BUY',
    );

    expect(await commands(a)).toBe(0);
    expect(sells(a)).toHaveLength(0);
    // Only the pause's cancels reached the exchange; the books kept their deal.
    expect(sandbox.control.orders(a.apiKey, 'XRP/USDT')).toHaveLength(sent);
    expect(before.map((o) => o.key).sort()).toEqual(['buy:2', 'tp:1']);
    expect(await t.prisma.lot.count({ where: { coinBotId: a.botId, closedAt: null } })).toBe(1);
  });
});

describe('cancel the pending buy', () => {
  it('dries the coin, the engine cancels the buy, and the answer says so', { timeout: 60_000 }, async () => {
    const a = await trader('deal_cancel_buy', 'ADA');
    const url = `/portfolio/deals/cancel_buy?coin_user_id=${a.botId}`;
    const asked = await send(a, 'POST', url, 'deal-cancel-0001');
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toMatchObject({ command: { kind: 'cancel_buy', status: 'pending', lots: [2] } });
    expect((await t.prisma.coinBot.findUniqueOrThrow({ where: { id: a.botId } })).dry).toBe(true);
    await reconcileCoinBot(t.ctx, { coinBotId: a.botId });
    const done = await served(() => send(a, 'GET', `/portfolio/deals/commands?coin_user_id=${a.botId}`));
    expect(done.json()).toMatchObject({
      commands: [{ kind: 'cancel_buy', status: 'done', result: { boughtQty: '0' } }],
    });
    expect((await restingOrders(a)).map((o) => o.key)).toEqual(['tp:1']);
    const log = await t.prisma.coinActivity.findMany({
      where: { coinBotId: a.botId, kind: { in: ['buy_cancel_requested', 'deal_command_done'] } },
      orderBy: { id: 'asc' },
    });
    expect(log.map((e) => [e.kind, e.actor])).toEqual([
      ['buy_cancel_requested', 'user'],
      ['deal_command_done', 'engine'],
    ]);
  });
});
