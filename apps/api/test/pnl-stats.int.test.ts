import type { User } from '@gridbot/db';
import { tradeFeeMicro } from '@gridbot/domain';
import {
  balanceOf,
  ensureAccount,
  ensureUserAccounts,
  fromMicro,
  SYSTEM_ACCOUNTS,
  toMicro,
  transfer,
  userAccountCode,
} from '@gridbot/ledger';
import { type SandboxExchangeHandle, startSandboxExchange } from '@gridbot/sandbox';
import { type Clock, getPanel, reconcileCoinBot, scanVenuePrices } from '@gridbot/services';
import Decimal from 'decimal.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

let sandbox: SandboxExchangeHandle;
let t: TestApp;
/** The services' clock: the system's, or a fixed instant where a test needs exact runtimes. */
let fixedNow: Date | null = null;
const clock: Clock = { now: () => fixedNow ?? new Date() };

beforeAll(async () => {
  sandbox = await startSandboxExchange({
    port: 0,
    tickMs: 0,
    markets: ['XRP', 'ADA'].map((base) => ({
      base,
      quote: 'USDT',
      tickSize: '0.0001',
      stepSize: '0.01',
      minNotional: '5',
      feed: { kind: 'fixed' as const, price: '1' },
      // The test crosses each order once and expects it filled: whole fills (apps/sandbox liquidity).
      liquidity: 'infinite' as const,
    })),
  });
  t = await createTestApp({}, { sandboxUrl: sandbox.url, clock });
  await ensureAccount(t.prisma, SYSTEM_ACCOUNTS.chainClearing);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

afterEach(() => {
  fixedNow = null;
  vi.useRealTimers();
});

const get = async (user: User, url: string) =>
  t.app.inject({ method: 'GET', url, headers: await t.authHeader(user) });

/** Runs reconcile until the coin bot's books match the exchange (each pass places or records). */
const settle = async (coinBotId: number) => {
  for (let i = 0; i < 4; i++) await reconcileCoinBot(t.ctx, { coinBotId });
};

/** Sandbox keys with 1000 USDT, saved through the API (checked there): the user's exchange account. */
const saveKeys = async (user: User) => {
  const keys = sandbox.control.createAccount({ balances: { USDT: '1000' } });
  const saved = await t.app.inject({
    method: 'POST',
    url: '/profile/api_key',
    headers: await t.authHeader(user),
    payload: { apiKey: keys.apiKey, secretKey: keys.secret },
  });
  expect(saved.statusCode).toBe(200);
  return t.prisma.exchangeAccount.findFirstOrThrow({ where: { userId: user.id } });
};

/** An exchange account row with sandbox keys, written directly (nothing trades on it). */
const storedAccount = async (user: User) => {
  const keys = sandbox.control.createAccount({});
  const sealed = t.ctx.secrets.seal(keys.secret, `${user.id}:binance`);
  return t.prisma.exchangeAccount.create({
    data: {
      userId: user.id,
      exchange: 'binance',
      mode: 'sandbox',
      apiKey: keys.apiKey,
      secretCipher: sealed.cipher,
      secretIv: sealed.iv,
      keyId: sealed.keyId,
    },
  });
};

describe('PnL statistics agree with the deals the engine recorded', () => {
  it('daily, monthly, per coin and the profit graph sum the closed lots of a real dip and recovery', async () => {
    const user = await t.createUser({ username: 'pnl_engine', feeBalance: '100' });
    const account = await saveKeys(user);
    const bots = [];
    for (const coin of ['XRP', 'ADA']) {
      bots.push(
        await t.prisma.coinBot.create({
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
        }),
      );
    }
    // Entry at 1, averaging at 0.99, both take profits as the price comes back above 1.01.
    for (const bot of bots) await settle(bot.id);
    for (const coin of ['XRP', 'ADA']) sandbox.control.setPrice(`${coin}/USDT`, '0.985');
    for (const bot of bots) await settle(bot.id);
    sandbox.control.setPrice('XRP/USDT', '1.02');
    for (const bot of bots) await settle(bot.id);

    const closed = await t.prisma.lot.findMany({
      where: { coinBot: { userId: user.id }, closedAt: { not: null } },
      include: { coinBot: { select: { coin: true } } },
    });
    expect(closed.length).toBeGreaterThanOrEqual(2);
    const exact = closed.reduce((sum, lot) => sum.plus(lot.realizedPnl.toString()), new Decimal(0));
    const shown = (value: Decimal) => value.toDecimalPlaces(6, Decimal.ROUND_HALF_EVEN).toFixed();
    const today = new Date().toISOString().slice(0, 10);
    // Each profitable lot was charged 20 % of its profit, rounded down, once, from the fee balance.
    const fees = closed.map((lot) => tradeFeeMicro(lot.realizedPnl.toString()));
    expect(closed.map((lot) => lot.tradeFee ?? 0n)).toEqual(fees);
    const feeSum = fees.reduce((sum, fee) => sum + fee, 0n);
    expect(feeSum).toBeGreaterThan(0n);
    expect(await balanceOf(t.prisma, userAccountCode(user.id, 'fee'))).toBe(toMicro('100') - feeSum);

    const daily = (await get(user, '/home/pnl/daily')).json();
    expect(daily).toMatchObject({ page: 1, total: 1, hasMore: false });
    expect(daily.items[0]).toEqual({
      date: today,
      realizedPnl: shown(exact),
      tradeFee: fromMicro(feeSum),
      closedTrades: closed.length,
      profitableTrades: closed.filter((lot) => new Decimal(lot.realizedPnl.toString()).gt(0)).length,
    });

    const monthly = (await get(user, '/home/pnl/monthly')).json();
    expect(monthly.items[0]).toMatchObject({
      month: today.slice(0, 7),
      realizedPnl: shown(exact),
      closedTrades: closed.length,
      tradingDays: 1,
    });

    const coins = (await get(user, '/home/pnl_daily_coins?target_date=today')).json();
    expect(coins.date).toBe(today);
    expect(coins.realizedPnl).toBe(shown(exact));
    const xrpExact = closed
      .filter((lot) => lot.coinBot.coin === 'XRP')
      .reduce((sum, lot) => sum.plus(lot.realizedPnl.toString()), new Decimal(0));
    const xrp = coins.coins.find((c: { coin: string }) => c.coin === 'XRP');
    expect(xrp).toMatchObject({ realizedPnl: shown(xrpExact), tradeFee: fromMicro(feeSum), closedTrades: 2 });
    expect(coins.tradeFee).toBe(fromMicro(feeSum));
    // ADA bought (entry and averaging) but did not sell: listed with its buys, best coin first.
    const ada = coins.coins.find((c: { coin: string }) => c.coin === 'ADA');
    expect(ada).toMatchObject({ realizedPnl: '0', closedTrades: 0, buys: 2 });
    expect(coins.coins[0].coin).toBe('XRP');

    const chart = (await get(user, '/portfolio/profit')).json();
    expect(chart.data).toHaveLength(30);
    expect(chart.data.at(-1)).toEqual({
      date: today,
      realizedPnl: shown(exact),
      cumulativePnl: shown(exact),
      closedTrades: closed.length,
    });
    expect(chart.data[0].realizedPnl).toBe('0');

    // The panel: the same sums, and unrealized PnL of the open lots at the last scanned price.
    await scanVenuePrices(t.ctx, { venue: 'binance:sandbox', symbols: ['XRP/USDT', 'ADA/USDT'] });
    const panel = await t.app.inject({ method: 'POST', url: '/home/', headers: await t.authHeader(user) });
    expect(panel.statusCode).toBe(200);
    const body = panel.json();
    expect(body.pnl).toMatchObject({ today: shown(exact), total: shown(exact) });
    const open = await t.prisma.lot.findMany({
      where: { coinBot: { userId: user.id }, closedAt: null },
      include: { coinBot: { select: { coin: true } } },
    });
    const price = { XRP: new Decimal('1.02'), ADA: new Decimal('0.985') };
    const unrealized = open.reduce(
      (sum, lot) =>
        sum.plus(
          new Decimal(lot.qty.toString())
            .times(price[lot.coinBot.coin as 'XRP' | 'ADA'])
            .minus(lot.cost.toString()),
        ),
      new Decimal(0),
    );
    expect(body.pnl.unrealized).toBe(shown(unrealized));
    expect(body.openDeals).toBe(open.length);
    expect(body).toMatchObject({
      running: true,
      allRunning: true,
      dryAll: false,
      committedCapital: '60',
      exchange: { name: 'binance', connected: true },
      blockers: [],
      feeBalance: fromMicro(toMicro('100') - feeSum),
      license: { level: 'FREE', expired: false, coinsLimit: expect.any(Number) },
    });
    const xrpCoin = body.coins.find((c: { coin: string }) => c.coin === 'XRP');
    expect(xrpCoin).toMatchObject({
      lastPrice: '1.02',
      pnlToday: shown(xrpExact),
      realizedPnl: shown(xrpExact),
      state: 'running',
    });
    const adaCoin = body.coins.find((c: { coin: string }) => c.coin === 'ADA');
    expect(adaCoin).toMatchObject({
      lastPrice: '0.985',
      openDeals: 2,
      maxTrades: 3,
      pnlToday: '0',
      lastError: null,
    });
  }, 120_000);
});

describe('PnL lists over time', () => {
  it('pages days and months newest first, and charges come from the ledger', async () => {
    const user = await t.createUser({ username: 'pnl_history' });
    const account = await storedAccount(user);
    const bot = await t.prisma.coinBot.create({
      data: {
        userId: user.id,
        exchangeAccountId: account.id,
        coin: 'XRP',
        symbol: 'XRP/USDT',
        orderSize: '10',
        stepPct: '1',
        stepIncreasePct: '0',
        maxTrades: 3,
      },
    });
    // Three days in October, two in November, as the engine books them (one row per coin bot and day).
    const days = [
      ['2026-10-05', '0.1000005', 1, 1],
      ['2026-10-06', '-0.05', 1, 0],
      ['2026-10-31', '0.2', 0, 0],
      ['2026-11-01', '0.3', 2, 2],
      ['2026-11-02', '0.123456789', 1, 1],
    ] as const;
    for (const [date, pnl, closedTrades, profitableTrades] of days) {
      await t.prisma.dailyPnl.create({
        data: {
          coinBotId: bot.id,
          userId: user.id,
          date: new Date(date),
          realizedPnl: pnl,
          closedTrades,
          profitableTrades,
        },
      });
    }
    // Today: a lot closed with a profit and the trading fee it was charged (lot and ledger agree).
    const today = new Date().toISOString().slice(0, 10);
    await t.prisma.dailyPnl.create({
      data: {
        coinBotId: bot.id,
        userId: user.id,
        date: new Date(today),
        realizedPnl: '0.5',
        closedTrades: 1,
        profitableTrades: 1,
      },
    });
    await ensureUserAccounts(t.prisma, user.id);
    await ensureAccount(t.prisma, SYSTEM_ACCOUNTS.fees);
    const charged = await transfer(t.prisma, {
      idempotencyKey: `pnl-history-fee-${user.id}`,
      type: 'trade_fee',
      legs: [
        { account: userAccountCode(user.id, 'fee'), amount: -toMicro('0.06') },
        { account: SYSTEM_ACCOUNTS.fees, amount: toMicro('0.06') },
      ],
    });
    expect(charged.replayed).toBe(false);
    await t.prisma.lot.create({
      data: {
        coinBotId: bot.id,
        seq: 900,
        buyPrice: '1',
        qty: '1',
        cost: '1',
        openedAt: new Date(`${today}T00:00:00Z`),
        sellPrice: '1.3',
        proceeds: '1.3',
        pnl: '0.3',
        realizedPnl: '0.3',
        closedAt: new Date(),
        tradeFee: toMicro('0.06'),
      },
    });

    const page1 = (await get(user, '/home/pnl/daily?limit=3')).json();
    expect(page1).toMatchObject({ page: 1, limit: 3, total: 6, hasMore: true });
    expect(page1.items.map((d: { date: string }) => d.date)).toEqual([today, '2026-11-02', '2026-11-01']);
    expect(page1.items[0]).toMatchObject({ realizedPnl: '0.5', tradeFee: '0.06', closedTrades: 1 });
    expect(page1.items[1]).toMatchObject({ realizedPnl: '0.123457', tradeFee: '0' });
    expect(page1.items[2]).toMatchObject({ realizedPnl: '0.3', tradeFee: '0', closedTrades: 2 });
    const page2 = (await get(user, '/home/pnl/daily?limit=3&page=2')).json();
    expect(page2).toMatchObject({ hasMore: false });
    expect(page2.items.map((d: { date: string }) => d.date)).toEqual([
      '2026-10-31',
      '2026-10-06',
      '2026-10-05',
    ]);
    expect(page2.items[2].realizedPnl).toBe('0.1');

    const months = (await get(user, '/home/pnl/monthly')).json();
    expect(months.items[0]).toMatchObject({ month: today.slice(0, 7), tradeFee: '0.06' });
    expect(months.items.find((m: { month: string }) => m.month === '2026-10')).toEqual({
      month: '2026-10',
      realizedPnl: '0.25', // 0.2500005 rounded half-even
      tradeFee: '0',
      closedTrades: 2,
      profitableTrades: 1,
      tradingDays: 2,
    });

    const day = (await get(user, '/home/pnl_daily_coins?target_date=2026-10-06')).json();
    expect(day).toEqual({
      date: '2026-10-06',
      realizedPnl: '-0.05',
      tradeFee: '0',
      coins: [
        { coin: 'XRP', realizedPnl: '-0.05', tradeFee: '0', closedTrades: 1, profitableTrades: 0, buys: 0 },
      ],
    });
    const empty = (await get(user, '/home/pnl_daily_coins?target_date=2020-01-01')).json();
    expect(empty).toEqual({ date: '2020-01-01', realizedPnl: '0', tradeFee: '0', coins: [] });

    expect((await get(user, '/home/pnl_daily_coins?target_date=2026-13-01')).statusCode).toBe(400);
    expect((await get(user, '/home/pnl/daily?limit=1000')).statusCode).toBe(400);
    expect((await get(user, '/portfolio/profit?days=0')).statusCode).toBe(400);

    // Another user sees none of it; asking for someone else's chart is refused.
    const other = await t.createUser({ username: 'pnl_other' });
    expect((await get(other, '/home/pnl/daily')).json()).toMatchObject({ total: 0, items: [] });
    const foreign = await get(other, `/portfolio/profit?user_id=${user.uid}`);
    expect(foreign.statusCode).toBe(403);
    expect((await get(user, `/portfolio/profit?user_id=${user.uid}&days=7`)).json().data).toHaveLength(7);
  });
});

describe('coin rating', () => {
  it('ranks coins held by at least three running bots by that day’s profit over committed capital', async () => {
    const date = '2026-09-15';
    const owners = await Promise.all(
      ['cr_a', 'cr_b', 'cr_c', 'cr_d'].map((username) => t.createUser({ username })),
    );
    const keys = sandbox.control.createAccount({});
    for (const [i, user] of owners.entries()) {
      const sealed = t.ctx.secrets.seal(keys.secret, `${user.id}:binance`);
      const account = await t.prisma.exchangeAccount.create({
        data: {
          userId: user.id,
          exchange: 'binance',
          mode: 'sandbox',
          apiKey: `${keys.apiKey.slice(0, 60)}${i}`,
          secretCipher: sealed.cipher,
          secretIv: sealed.iv,
          keyId: sealed.keyId,
        },
      });
      // Everyone runs DOGE (capital 10 × 10 = 100 each); only the first two run PEPE.
      for (const coin of i < 2 ? ['DOGE', 'PEPE'] : ['DOGE']) {
        const bot = await t.prisma.coinBot.create({
          data: {
            userId: user.id,
            exchangeAccountId: account.id,
            coin,
            symbol: `${coin}/USDT`,
            orderSize: '10',
            stepPct: '1',
            stepIncreasePct: '0',
            maxTrades: 10,
            running: true,
          },
        });
        await t.prisma.dailyPnl.create({
          data: {
            coinBotId: bot.id,
            userId: user.id,
            date: new Date(date),
            realizedPnl: '1',
            closedTrades: 1,
            profitableTrades: 1,
          },
        });
      }
    }
    const viewer = await t.createUser({ username: 'cr_viewer' });
    const res = await get(viewer, `/home/coin_rating?date=${date}`);
    expect(res.statusCode).toBe(200);
    const doge = res.json().coins.find((c: { coin: string }) => c.coin === 'DOGE');
    // Σ pnl 4 over Σ capital 400 = 1 %.
    expect(doge).toMatchObject({
      coin: 'DOGE',
      profitPct: '1',
      closedTrades: 4,
      bots: 4,
      inPortfolio: false,
    });
    expect(res.json().coins.some((c: { coin: string }) => c.coin === 'PEPE')).toBe(false);
    const mine = (await get(owners[0] as User, `/home/coin_rating?date=${date}`)).json();
    expect(mine.coins.find((c: { coin: string }) => c.coin === 'DOGE').inPortfolio).toBe(true);
  });
});

const shown = (value: Decimal.Value) =>
  new Decimal(value).toDecimalPlaces(6, Decimal.ROUND_HALF_EVEN).toFixed();
const pct = (value: Decimal) => value.toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN).toFixed();
const DAY_MS = 86_400_000;

/** A user with sandbox keys and running coin bots (10 USDT × 3 each), started through the API. */
const startedTrader = async (username: string, coins: readonly string[]) => {
  const user = await t.createUser({ username, feeBalance: '100' });
  const headers = await t.authHeader(user);
  await saveKeys(user);
  for (const coin of coins) {
    const added = await t.app.inject({
      method: 'POST',
      url: `/portfolio/add_coin/add?data_send=${coin}`,
      headers,
    });
    expect(added.statusCode).toBe(200);
  }
  await t.prisma.coinBot.updateMany({
    where: { userId: user.id },
    data: { orderSize: '10', stepPct: '1', stepIncreasePct: '0.1', maxTrades: 3 },
  });
  expect((await t.app.inject({ method: 'POST', url: '/home/start', headers })).statusCode).toBe(200);
  const bots = await t.prisma.coinBot.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' } });
  return { user, bots };
};

/** Entry at 1, averaging at 0.985, and XRP's take profits as it comes back to 1.02 (ADA stays down). */
const dipAndRecover = async (bots: readonly { id: number }[]) => {
  for (const coin of ['XRP', 'ADA']) sandbox.control.setPrice(`${coin}/USDT`, '1');
  for (const bot of bots) await settle(bot.id);
  for (const coin of ['XRP', 'ADA']) sandbox.control.setPrice(`${coin}/USDT`, '0.985');
  for (const bot of bots) await settle(bot.id);
  sandbox.control.setPrice('XRP/USDT', '1.02');
  for (const bot of bots) await settle(bot.id);
};

const panelOf = async (user: User) => {
  const res = await t.app.inject({ method: 'POST', url: '/home/', headers: await t.authHeader(user) });
  expect(res.statusCode).toBe(200);
  return res.json();
};

describe('the panel counts the booked PnL (docs/pnl.md#the-panel)', () => {
  it('keeps today’s and the total profit, the same as PnL statistics, after every coin is removed', async () => {
    const { user, bots } = await startedTrader('pnl_removed', ['XRP', 'ADA']);
    await dipAndRecover(bots);
    const booked = await t.prisma.lot.findMany({
      where: { coinBot: { userId: user.id }, closedAt: { not: null } },
    });
    expect(booked.length).toBeGreaterThanOrEqual(2);
    const exact = booked.reduce((sum, lot) => sum.plus(lot.realizedPnl.toString()), new Decimal(0));
    const daily = (await get(user, '/home/pnl/daily')).json();
    const chart = (await get(user, '/portfolio/profit')).json();
    expect(daily.items[0].realizedPnl).toBe(shown(exact));

    const headers = await t.authHeader(user);
    for (const coin of ['XRP', 'ADA']) {
      const removed = await t.app.inject({
        method: 'POST',
        url: `/portfolio/setting/delete?data_send=${coin}`,
        headers,
      });
      expect(removed.statusCode).toBe(200);
    }
    const panel = await panelOf(user);
    expect(panel.coins).toEqual([]);
    expect(panel.committedCapital).toBe('0');
    expect(panel.pnl).toMatchObject({
      today: daily.items[0].realizedPnl,
      todayDate: daily.items[0].date,
      total: chart.data.at(-1).cumulativePnl,
      todayPct: '0',
    });
    expect(panel.pnl.total).toBe(shown(exact));
    // Nothing is set aside any more: no return to show, but the runtime since the first start stays.
    expect(panel.pnl.run).toMatchObject({ returnPct: null, annualizedPct: null });
    expect(panel.pnl.run.runningSince).toBe(bots[0]?.startedAt?.toISOString());
    // PnL statistics say the same after the removal.
    expect((await get(user, '/home/pnl/daily')).json().items[0]).toEqual(daily.items[0]);
  }, 120_000);
});

describe('runtime and return (docs/pnl.md#runtime-and-return)', () => {
  it('per coin and overall: realized PnL over committed capital since the first start, annualized from a day on', async () => {
    const user = await t.createUser({ username: 'pnl_return' });
    const account = await storedAccount(user);
    const now = new Date();
    fixedNow = now;
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const xrpStart = ago(3 * DAY_MS + 7 * 3_600_000 + 12 * 60_000 + 5_000);
    const ethStart = ago(10 * DAY_MS);
    const bot = (coin: string, fields: Record<string, unknown>) =>
      t.prisma.coinBot.create({
        data: {
          userId: user.id,
          exchangeAccountId: account.id,
          coin,
          symbol: `${coin}/USDT`,
          orderSize: '10',
          stepPct: '1',
          stepIncreasePct: '0',
          maxTrades: 3,
          running: true,
          ...fields,
        },
      });
    // XRP: 30 USDT set aside for 3 d 7 h 12 min 5 s; ADA: 50 USDT for 5 hours (too soon to annualize).
    await bot('XRP', { startedAt: xrpStart, realizedPnl: '0.123456789012345678' });
    await bot('ADA', { orderSize: '12.5', maxTrades: 4, startedAt: ago(5 * 3_600_000), realizedPnl: '0.3' });
    // ETH was started first and removed since: its profit stays booked and its start dates the whole run.
    const eth = await bot('ETH', { running: false, startedAt: ethStart, realizedPnl: '1.5' });
    await t.prisma.coinBot.update({
      where: { id: eth.id },
      data: { deletedAt: ago(DAY_MS), removalId: eth.id },
    });

    const headers = await t.authHeader(user);
    const xrp = (await t.app.inject({ method: 'POST', url: '/portfolio/XRP?period=day', headers })).json();
    const xrpRuntime = now.getTime() - xrpStart.getTime();
    const xrpReturn = new Decimal('0.123456789012345678').times(100).div(30);
    expect(xrp.coin.committedCapital).toBe('30');
    expect(xrp.coin.stats.run).toEqual({
      runningSince: xrpStart.toISOString(),
      runtimeSeconds: Math.floor(xrpRuntime / 1000),
      returnPct: pct(xrpReturn), // 0.41
      annualizedPct: pct(xrpReturn.times(365).times(DAY_MS).div(xrpRuntime)),
    });
    expect(xrp.coin.stats.run.annualizedPct).toBe('45.52'); // 0.411523 % × 365 / 3.300058 days

    const portfolio = (await t.app.inject({ method: 'POST', url: '/portfolio/?period=day', headers })).json();
    const ada = portfolio.coins.find((c: { coin: string }) => c.coin === 'ADA');
    expect(ada.stats.run).toEqual({
      runningSince: ago(5 * 3_600_000).toISOString(),
      runtimeSeconds: 5 * 3600,
      returnPct: '0.6', // 0.3 / 50
      annualizedPct: null,
    });

    const panel = await panelOf(user);
    const total = new Decimal('1.923456789012345678');
    expect(panel.pnl.total).toBe(shown(total));
    expect(panel.committedCapital).toBe('80');
    // 1.923456789… / 80 = 2.404321 %, over exactly 10 days: × 36.5 = 87.757716 %.
    expect(panel.pnl.run).toEqual({
      runningSince: ethStart.toISOString(),
      runtimeSeconds: 10 * 86_400,
      returnPct: '2.4',
      annualizedPct: '87.76',
    });
  });
});

describe('PnL days are UTC days (docs/pnl.md#days-and-times)', () => {
  it('books a sale at 23:30 UTC on that UTC day, and “today” turns at 00:00 UTC', async () => {
    // Every clock in this process — the sandbox exchange's trade times, the engine's, the API's —
    // at the next 23:30 UTC, moving on as usual.
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    const day = new Date(midnight.getTime() - DAY_MS).toISOString().slice(0, 10);
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(`${day}T23:30:00.000Z`), shouldAdvanceTime: true });
    const { user, bots } = await startedTrader('pnl_utc', ['XRP', 'ADA']);
    await dipAndRecover(bots);
    const sold = await t.prisma.lot.findMany({
      where: { coinBot: { userId: user.id }, closedAt: { not: null } },
    });
    expect(sold.length).toBeGreaterThanOrEqual(2);
    for (const lot of sold) expect(lot.closedAt?.toISOString().slice(0, 13)).toBe(`${day}T23`);
    const exact = sold.reduce((sum, lot) => sum.plus(lot.realizedPnl.toString()), new Decimal(0));

    expect((await panelOf(user)).pnl).toMatchObject({
      today: shown(exact),
      todayDate: day,
      total: shown(exact),
    });
    expect((await get(user, '/home/pnl/daily')).json().items[0]).toMatchObject({
      date: day,
      realizedPnl: shown(exact),
    });

    // 00:15 UTC the next day: a new PnL day, whatever the hour where the user is.
    vi.setSystemTime(new Date(midnight.getTime() + 15 * 60_000));
    const next = midnight.toISOString().slice(0, 10);
    // The panel answers one call per 2 s per user: the same service, asked directly.
    const panel = await getPanel(t.ctx, { userId: user.id });
    expect(panel.pnl).toMatchObject({ today: '0', todayDate: next, total: shown(exact) });
    const daily = (await get(user, '/home/pnl/daily')).json();
    expect(daily.items.map((row: { date: string }) => row.date)).toEqual([day]);
    expect((await get(user, '/home/pnl_daily_coins?target_date=yesterday')).json()).toMatchObject({
      date: day,
      realizedPnl: shown(exact),
    });
    const chart = (await get(user, '/portfolio/profit?days=2')).json();
    expect(chart.data).toEqual([
      { date: day, realizedPnl: shown(exact), cumulativePnl: shown(exact), closedTrades: sold.length },
      { date: next, realizedPnl: '0', cumulativePnl: shown(exact), closedTrades: 0 },
    ]);
  }, 120_000);
});
