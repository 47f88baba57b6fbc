import { createTestDb } from '@gridbot/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceContext } from '../src/context/service-context';
import { seedDemo } from '../src/demo/seed-demo';
import type { DemoPastCandle } from '../src/demo/seed-demo-history';
import { type DemoSandbox, seedDemoTrading } from '../src/demo/seed-demo-trading';
import { createTestContext } from '../src/testing';

let db: Awaited<ReturnType<typeof createTestDb>>;
let ctx: ServiceContext;

/** The sandbox as the seed sees it: the keys it knows, and new accounts with numbered keys. */
const sandboxKnowing = (keys: Set<string>): DemoSandbox => ({
  hasApiKey: (apiKey) => keys.has(apiKey),
  createAccount: () => {
    const apiKey = `key-${keys.size + 1}`;
    keys.add(apiKey);
    return { apiKey, secret: `secret-${apiKey}` };
  },
});

/** Two days of minutes zigzagging ±3 % around 100: enough for a grid to buy and sell. */
const zigzag = (since: number): DemoPastCandle[] =>
  Array.from({ length: 2 * 1440 }, (_, i) => {
    const level = 100 + 3 * Math.sin(i / 60);
    const open = level.toFixed(2);
    const close = (100 + 3 * Math.sin((i + 1) / 60)).toFixed(2);
    const [low, high] = [open, close].sort((a, b) => Number(a) - Number(b));
    return { time: since + i * 60_000, open, high: high!, low: low!, close };
  });

/** The sandbox with a past (the same candles for every market) that records the balances it is given. */
const sandboxWithPast = (keys: Set<string>, balances: Array<Record<string, string>>): DemoSandbox => ({
  ...sandboxKnowing(keys),
  history: {
    pastCandles: (_symbol, since) => zigzag(since - (since % 60_000)),
    market: () => ({ tickSize: '0.01', stepSize: '0.0001' }),
    feePct: '0.1',
    setBalances: (_apiKey, given) => void balances.push(given),
  },
});

beforeAll(async () => {
  db = await createTestDb();
  ctx = createTestContext({ prisma: db.prisma });
});
afterAll(async () => db.close());

describe('seedDemoTrading across restarts', () => {
  it('resumes with the stored keys and coin bots while the sandbox has the account, starts over when it does not', async () => {
    const { user } = await seedDemo(ctx);
    const keys = new Set<string>();
    const listedCoins = ['ETH', 'XRP', 'ADA', 'LTC'];

    const first = await seedDemoTrading(ctx, { user, listedCoins, sandbox: sandboxKnowing(keys) });
    expect(first.start).toBe('fresh');
    expect(first.bots.map((b) => b.coin)).toEqual(['ETH', 'XRP', 'ADA']);
    const eth = first.bots[0]!;
    await ctx.prisma.lot.create({
      data: { coinBotId: eth.id, seq: 1, buyPrice: '3000', qty: '0.01', cost: '30', openedAt: new Date() },
    });

    const again = await seedDemoTrading(ctx, { user, listedCoins, sandbox: sandboxKnowing(keys) });
    expect(again.start).toBe('resumed');
    expect(again.account.apiKey).toBe(first.account.apiKey);
    expect(again.bots.map((b) => b.id)).toEqual(first.bots.map((b) => b.id));
    expect(await ctx.prisma.lot.count({ where: { coinBotId: eth.id } })).toBe(1);
    // The secret stays the one the sandbox issued (not sealed again with another value).
    expect(
      ctx.secrets.open(
        { cipher: again.account.secretCipher, iv: again.account.secretIv, keyId: again.account.keyId },
        `${user.id}:binance`,
      ),
    ).toBe(`secret-${first.account.apiKey}`);

    // The sandbox's state file was deleted: its new process knows no key.
    const forgotten = await seedDemoTrading(ctx, { user, listedCoins, sandbox: sandboxKnowing(new Set()) });
    expect(forgotten.start).toBe('fresh');
    expect(forgotten.account.id).toBe(first.account.id);
    expect(forgotten.bots.map((b) => b.coin)).toEqual(['ETH', 'XRP', 'ADA']);
    expect(forgotten.bots.some((b) => first.bots.some((old) => old.id === b.id))).toBe(false);
    expect(await ctx.prisma.lot.count({ where: { coinBotId: eth.id } })).toBe(0);
  });
});

describe('the demo history', () => {
  it('is booked on a fresh start, again after a start that stopped before writing it, and never twice', async () => {
    const { user } = await seedDemo(ctx);
    const keys = new Set<string>();
    const listedCoins = ['ETH', 'XRP', 'ADA'];
    const balances: Array<Record<string, string>> = [];
    const sandbox = sandboxWithPast(keys, balances);
    const countRows = async () => ({
      orders: await ctx.prisma.order.count({ where: { coinBot: { userId: user.id } } }),
      lots: await ctx.prisma.lot.count({ where: { coinBot: { userId: user.id } } }),
      pnl: await ctx.prisma.dailyPnl.count({ where: { userId: user.id } }),
    });

    // Fresh: the old account's keys are unknown to this sandbox.
    const fresh = await seedDemoTrading(ctx, { user, listedCoins, sandbox });
    expect(fresh.start).toBe('fresh');
    expect(fresh.bots.every((b) => b.running && b.startedAt! < new Date(Date.now() - 86_400_000))).toBe(true);
    expect(Object.values(fresh.history!.fills).every((n) => n > 10)).toBe(true);
    expect(balances).toHaveLength(1);
    expect(Number(balances[0]!.USDT)).toBeLessThan(10_000);
    const booked = await countRows();
    expect(booked.pnl).toBeGreaterThanOrEqual(3);

    // A start that died before its history transaction: the bots exist, stopped, without rows.
    const ids = fresh.bots.map((b) => b.id);
    await ctx.prisma.order.deleteMany({ where: { coinBotId: { in: ids } } });
    await ctx.prisma.lot.deleteMany({ where: { coinBotId: { in: ids } } });
    await ctx.prisma.dailyPnl.deleteMany({ where: { coinBotId: { in: ids } } });
    await ctx.prisma.coinBot.updateMany({
      where: { id: { in: ids } },
      data: { running: false, startedAt: null },
    });
    const recovered = await seedDemoTrading(ctx, { user, listedCoins, sandbox });
    expect(recovered.start).toBe('resumed');
    expect(recovered.bots.map((b) => b.id)).toEqual(ids);
    expect(recovered.bots.every((b) => b.running)).toBe(true);
    expect(await countRows()).toEqual(booked);
    expect(balances).toHaveLength(2);

    const again = await seedDemoTrading(ctx, { user, listedCoins, sandbox });
    expect(again.history).toBeUndefined();
    expect(await countRows()).toEqual(booked);
    expect(balances).toHaveLength(2);
  }, 120_000);
});

describe('the demo on every exchange', () => {
  it('gives the demo user an account and coin bots on each dialect the sandbox speaks, OKX keys with their passphrase', async () => {
    const { user } = await seedDemo(ctx);
    const keys = new Set<string>();
    const listedCoins = ['ETH', 'XRP', 'ADA', 'LTC'];
    const sandbox: DemoSandbox = {
      ...sandboxKnowing(keys),
      createAccount: (_usdt, exchange) => {
        const apiKey = `${exchange ?? 'binance'}-key-${keys.size + 1}`;
        keys.add(apiKey);
        return { apiKey, secret: `secret-${apiKey}`, passphrase: `pass-${apiKey}` };
      },
      venues: ['bybit', 'okx'],
    };
    const first = await seedDemoTrading(ctx, { user, listedCoins, sandbox });
    expect(first.venues.map((v) => [v.exchange, v.start])).toEqual([
      ['binance', 'fresh'],
      ['bybit', 'fresh'],
      ['okx', 'fresh'],
    ]);
    const bots = await ctx.prisma.coinBot.findMany({
      where: { userId: user.id, deletedAt: null },
      include: { exchangeAccount: { select: { exchange: true } } },
      orderBy: { id: 'asc' },
    });
    // The same coin on two exchanges is two coin bots.
    expect(bots.map((b) => `${b.coin}@${b.exchangeAccount.exchange}`)).toEqual([
      'ETH@binance',
      'XRP@binance',
      'ADA@binance',
      'XRP@bybit',
      'LTC@bybit',
      'ADA@okx',
      'ETH@okx',
    ]);
    const okx = first.venues[2]!.account;
    expect(
      ctx.secrets.open(
        { cipher: okx.passphraseCipher!, iv: okx.passphraseIv!, keyId: okx.keyId },
        `${user.id}:okx:passphrase`,
      ),
    ).toBe(`pass-${okx.apiKey}`);
    expect(first.venues[1]!.account.passphraseCipher).toBeNull();

    // A restart keeps every venue's account and coin bots.
    const again = await seedDemoTrading(ctx, { user, listedCoins, sandbox });
    expect(again.venues.map((v) => v.start)).toEqual(['resumed', 'resumed', 'resumed']);
    expect(again.bots.map((b) => b.id)).toEqual(first.bots.map((b) => b.id));
  });
});
