import { createTestDb } from '@gridbot/db/testing';
import { checkInvariants, toMicro } from '@gridbot/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceContext } from '../src/context/service-context';
import { DEMO_LICENSE, DEMO_WALLET, seedDemo } from '../src/demo/seed-demo';
import { getLicenseCheck, getUserLicense, grantLicense } from '../src/license/user-license';
import { createTestContext } from '../src/testing';

let db: Awaited<ReturnType<typeof createTestDb>>;
let ctx: ServiceContext;
let now = new Date('2026-03-01T12:00:00Z');

beforeAll(async () => {
  db = await createTestDb();
  ctx = createTestContext({ prisma: db.prisma, clock: { now: () => now } });
});
afterAll(async () => db.close());

const newUser = (n: number) =>
  ctx.prisma.user.create({
    data: {
      telegramId: BigInt(900_000 + n),
      username: `lic_${n}`,
      usernameKey: `lic_${n}`,
      firstName: 'L',
      referralCode: `lic${n}`,
      createdAt: new Date('2026-03-01T00:00:00Z'),
    },
  });

describe('user licence', () => {
  it('starts on FREE for 14 days from registration, from the ladder the migration seeded', async () => {
    expect(
      await ctx.prisma.licenseLevel.findMany({
        orderBy: { rank: 'asc' },
        select: { code: true, coins: true },
      }),
    ).toEqual([
      { code: 'FREE', coins: 3 },
      { code: 'PRO1', coins: 10 },
      { code: 'PRO2', coins: 20 },
      { code: 'PRO3', coins: 30 },
      { code: 'PRO4', coins: 50 },
    ]);
    const user = await newUser(1);
    const license = await getUserLicense(ctx, { userId: user.id });
    expect(license).toMatchObject({
      level: 'FREE',
      paid: false,
      activeFrom: '2026-03-01T00:00:00.000Z',
      activeUntil: '2026-03-15T00:00:00.000Z',
      expired: false,
      daysLeft: 14,
      balanceLimit: '300',
      coins: 3,
    });
    // The operator's table decides the free validity for everyone.
    await ctx.prisma.licenseLevel.update({ where: { code: 'FREE' }, data: { validDays: 7 } });
    expect((await getUserLicense(ctx, { userId: user.id })).activeUntil).toBe('2026-03-08T00:00:00.000Z');
    await ctx.prisma.licenseLevel.update({ where: { code: 'FREE' }, data: { validDays: 14 } });
  });

  it('counts the portfolio against the licence', async () => {
    const user = await newUser(2);
    const account = await ctx.prisma.exchangeAccount.create({
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
    for (const [coin, orderSize, maxTrades] of [
      ['ETH', '12.5', 10],
      ['XRP', '20', 3],
    ] as const) {
      await ctx.prisma.coinBot.create({
        data: {
          userId: user.id,
          exchangeAccountId: account.id,
          coin,
          symbol: `${coin}/USDT`,
          orderSize,
          stepPct: '1',
          stepIncreasePct: '0',
          maxTrades,
        },
      });
    }
    const check = await getLicenseCheck(ctx, { userId: user.id });
    expect(check.usage).toEqual({ coins: 2, committedCapital: '185' });
  });

  it('grants a paid level for its validity; the database refuses a half-stored period', async () => {
    const user = await newUser(3);
    await grantLicense(ctx, { userId: user.id, level: 'PRO2' });
    expect(await getUserLicense(ctx, { userId: user.id })).toMatchObject({
      level: 'PRO2',
      paid: true,
      activeFrom: now.toISOString(),
      activeUntil: '2027-03-01T12:00:00.000Z',
      daysLeft: 365,
      balanceLimit: '7000',
      renewal: { available: false, price: '240' },
    });
    now = new Date('2027-03-01T11:59:59.999Z');
    expect(await getUserLicense(ctx, { userId: user.id })).toMatchObject({
      expired: false,
      renewal: { available: true, availableFrom: '2027-01-30T12:00:00.000Z' },
    });
    // Once ended, renewal is over: the level is bought again (docs/licences.md#renewal).
    now = new Date('2027-03-01T12:00:00Z');
    expect(await getUserLicense(ctx, { userId: user.id })).toMatchObject({
      expired: true,
      daysLeft: 0,
      renewal: { available: false, newActiveUntil: null },
    });
    now = new Date('2026-03-01T12:00:00Z');
    await expect(grantLicense(ctx, { userId: user.id, level: 'GOLD' })).rejects.toMatchObject({
      code: 'LICENSE_LEVEL_UNKNOWN',
    });
    await expect(
      ctx.prisma.user.update({ where: { id: user.id }, data: { licenseActiveFrom: null } }),
    ).rejects.toThrow();
    await expect(
      ctx.prisma.user.update({ where: { id: user.id }, data: { licenseLevel: 'NOPE' } }),
    ).rejects.toThrow();
  });

  it('gives the demo user PRO1 once', async () => {
    const { user } = await seedDemo(ctx);
    expect(user.licenseLevel).toBe(DEMO_LICENSE);
    const until = user.licenseActiveUntil;
    now = new Date('2026-04-01T12:00:00Z');
    const again = await seedDemo(ctx);
    expect(again.user.licenseActiveUntil).toEqual(until);
    now = new Date('2026-03-01T12:00:00Z');
  });

  it('funds the demo wallet once: a deposit, part of it on the fee balance so trading can start', async () => {
    const { user } = await seedDemo(ctx);
    await seedDemo(ctx);
    const balances = await db.prisma.ledgerAccount.findMany({
      where: { userId: user.id },
      orderBy: { subBalance: 'asc' },
      select: { subBalance: true, balance: true },
    });
    const fee = toMicro(DEMO_WALLET.fee);
    expect(balances).toEqual([
      { subBalance: 'fee', balance: fee },
      // Plus the referral bonus of the demo team's licence purchases (docs/bonuses.md#demo-team).
      { subBalance: 'main', balance: toMicro(DEMO_WALLET.deposit) - fee + toMicro('429') },
    ]);
    expect((await checkInvariants(db.prisma)).ok).toBe(true);
  });
});
