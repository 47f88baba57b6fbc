import { createTestDb } from '@gridbot/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordActivity } from '../src/activity/record-activity';

let db: Awaited<ReturnType<typeof createTestDb>>;

beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => db.close());

describe('coin activity log', () => {
  it('appends entries, skips one already logged under its dedupe key, refuses unknown kinds', async () => {
    const user = await db.prisma.user.create({
      data: { telegramId: 1n, username: 'act', usernameKey: 'act', firstName: 'A', referralCode: 'act1' },
    });
    const account = await db.prisma.exchangeAccount.create({
      data: {
        userId: user.id,
        exchange: 'binance',
        mode: 'sandbox',
        apiKey: 'k',
        secretCipher: Buffer.alloc(1),
        secretIv: Buffer.alloc(1),
        keyId: 'k1',
      },
    });
    const bot = await db.prisma.coinBot.create({
      data: {
        userId: user.id,
        exchangeAccountId: account.id,
        coin: 'ETH',
        symbol: 'ETH/USDT',
        orderSize: '10',
        stepPct: '1',
        stepIncreasePct: '0',
        maxTrades: 3,
      },
    });
    const fill = {
      coinBotId: bot.id,
      userId: user.id,
      kind: 'order_filled' as const,
      actor: 'exchange' as const,
      data: { side: 'buy', price: '3000.5', qty: '0.0033' },
      dedupeKey: 'fill:42',
    };
    expect(
      await recordActivity(db.prisma, [
        { coinBotId: bot.id, userId: user.id, kind: 'started', actor: 'user' },
        fill,
      ]),
    ).toBe(2);
    expect(await recordActivity(db.prisma, fill)).toBe(0);
    const rows = await db.prisma.coinActivity.findMany({
      where: { coinBotId: bot.id },
      orderBy: { id: 'asc' },
    });
    expect(rows.map((row) => [row.kind, row.actor, row.data])).toEqual([
      ['started', 'user', null],
      ['order_filled', 'exchange', { side: 'buy', price: '3000.5', qty: '0.0033' }],
    ]);
    await expect(
      db.prisma.coinActivity.create({
        data: { coinBotId: bot.id, userId: user.id, kind: 'exploded', actor: 'user' },
      }),
    ).rejects.toThrow();
  });
});
