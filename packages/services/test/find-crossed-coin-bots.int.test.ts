import type { PrismaClient } from '@gridbot/db';
import { createTestDb } from '@gridbot/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceContext } from '../src/context/service-context';
import { findCrossedCoinBots } from '../src/grid/find-crossed-coin-bots';
import { advancePriceMarks, readScanTimes } from '../src/grid/price-marks';
import { createTestContext } from '../src/testing';

let db: Awaited<ReturnType<typeof createTestDb>>;
let prisma: PrismaClient;
let ctx: ServiceContext;
const bots: Record<string, number> = {};

const order = (coinBotId: number, symbol: string, side: 'buy' | 'sell', price: string, status = 'open') => ({
  coinBotId,
  clientOrderId: `t-${coinBotId}-${side}-${price}-${status}`,
  key: `${side}:${price}`,
  role: side === 'buy' ? 'averaging' : 'take_profit',
  side,
  type: 'limit',
  symbol,
  price,
  qty: '1',
  lotSeq: 1,
  attempt: 1,
  status,
});

beforeAll(async () => {
  db = await createTestDb();
  prisma = db.prisma;
  ctx = createTestContext({ prisma });
  const user = await prisma.user.create({
    data: { telegramId: 1n, username: 'scan', usernameKey: 'scan', firstName: 'S', referralCode: 'scan' },
  });
  const account = await prisma.exchangeAccount.create({
    data: {
      userId: user.id,
      exchange: 'binance',
      mode: 'sandbox',
      apiKey: 'k',
      secretCipher: new Uint8Array(1),
      secretIv: new Uint8Array(1),
      keyId: 'x',
    },
  });
  for (const name of ['a', 'b', 'c', 'd']) {
    const bot = await prisma.coinBot.create({
      data: {
        userId: user.id,
        exchangeAccountId: account.id,
        coin: name.toUpperCase(),
        symbol: name === 'd' ? 'ETH/USDT' : 'XRP/USDT',
        orderSize: '10',
        stepPct: '1',
        stepIncreasePct: '0.1',
        maxTrades: 5,
      },
    });
    bots[name] = bot.id;
  }
  await prisma.order.createMany({
    data: [
      order(bots.a!, 'XRP/USDT', 'buy', '0.99'),
      order(bots.a!, 'XRP/USDT', 'sell', '1.01'),
      order(bots.b!, 'XRP/USDT', 'buy', '0.95'),
      order(bots.b!, 'XRP/USDT', 'sell', '1.10'),
      order(bots.c!, 'XRP/USDT', 'buy', '0.999', 'canceled'),
      order(bots.d!, 'ETH/USDT', 'buy', '0.99'),
    ],
  });
});
afterAll(async () => {
  await db?.close();
});

describe('findCrossedCoinBots', () => {
  it('finds nobody while the price stays between the ladders', async () => {
    expect(
      await findCrossedCoinBots(ctx, { ranges: [{ symbol: 'XRP/USDT', low: '0.995', high: '1.005' }] }),
    ).toEqual([]);
  });

  it('a dip to the buy price crosses it (touch counts), only open orders, only that symbol', async () => {
    expect(
      await findCrossedCoinBots(ctx, { ranges: [{ symbol: 'XRP/USDT', low: '0.99', high: '1' }] }),
    ).toEqual([bots.a]);
  });

  it('a range crossing both sides returns each coin bot once', async () => {
    const ids = await findCrossedCoinBots(ctx, { ranges: [{ symbol: 'XRP/USDT', low: '0.9', high: '1.2' }] });
    expect(ids.sort()).toEqual([bots.a, bots.b].sort());
  });

  it('handles many symbols in one call', async () => {
    const ids = await findCrossedCoinBots(ctx, {
      ranges: [
        { symbol: 'XRP/USDT', low: '1.0', high: '1.02' },
        { symbol: 'ETH/USDT', low: '0.5', high: '0.6' },
        { symbol: 'NONE/USDT', low: '0', high: '9' },
      ],
    });
    expect(ids.sort()).toEqual([bots.a, bots.d].sort());
  });
});

describe('advancePriceMarks', () => {
  const venue = 'binance:marks';
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, s));

  it('widens the traded range by the previous and current price, and keeps the scan time', async () => {
    const first = await advancePriceMarks(ctx, {
      venue,
      scannedAt: at(0),
      prices: [{ symbol: 'XRP/USDT', price: '1' }],
    });
    expect(first).toEqual([{ symbol: 'XRP/USDT', low: '1', high: '1' }]);
    const next = await advancePriceMarks(ctx, {
      venue,
      scannedAt: at(2),
      prices: [
        { symbol: 'XRP/USDT', price: '1.002', low: '0.99', high: '1.003' },
        { symbol: 'ETH/USDT', price: '0.98' },
      ],
    });
    const bySymbol = Object.fromEntries(next.map((r) => [r.symbol, [r.low, r.high].map(Number)]));
    expect(bySymbol).toEqual({ 'XRP/USDT': [0.99, 1.003], 'ETH/USDT': [0.98, 0.98] });
    expect(await findCrossedCoinBots(ctx, { ranges: next })).toContain(bots.a);
    expect(await readScanTimes(ctx, { venue, symbols: ['XRP/USDT', 'ETH/USDT', 'NONE/USDT'] })).toEqual(
      new Map([
        ['XRP/USDT', at(2)],
        ['ETH/USDT', at(2)],
      ]),
    );
  });
});
