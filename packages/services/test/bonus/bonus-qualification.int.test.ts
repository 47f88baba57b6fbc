import { createTestDb } from '@gridbot/db/testing';
import {
  balanceOf,
  checkInvariants,
  ensureAccount,
  ensureUserAccounts,
  SYSTEM_ACCOUNTS,
  toMicro,
  transfer,
  userAccountCode,
} from '@gridbot/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accrueMatchingBonus } from '../../src/bonus/matching-bonus';
import type { ServiceContext } from '../../src/context/service-context';
import { AppError } from '../../src/errors';
import { renewUserLicense, updateUserLicense } from '../../src/license/license-purchase';
import { grantLicense } from '../../src/license/user-license';
import { createTestContext } from '../../src/testing';
import { sendTransfer } from '../../src/wallet/send-transfer';

/**
 * Who earns a bonus (docs/bonuses.md#who-earns): only an upline holding an active paid licence.
 * The attack of issue 20: three fresh FREE accounts stacked above a buyer took back 43 % of a PRO4
 * purchase (516 of 1,200 USDT) and moved it on by internal transfer.
 */

let db: Awaited<ReturnType<typeof createTestDb>>;
let ctx: ServiceContext;
const now = new Date('2026-05-10T12:00:00Z');
let seq = 0;

beforeAll(async () => {
  db = await createTestDb();
  ctx = createTestContext({ prisma: db.prisma, clock: { now: () => now } });
});
afterAll(async () => db.close());

/** A user registered `daysAgo` days ago (0: a fresh account, its FREE licence running). */
const newUser = async (sponsorId: number | null, daysAgo = 0) => {
  seq += 1;
  return ctx.prisma.user.create({
    data: {
      telegramId: BigInt(600_000 + seq),
      username: `q_${seq}`,
      usernameKey: `q_${seq}`,
      firstName: 'Q',
      referralCode: `q${seq}`,
      sponsorId,
      createdAt: new Date(now.getTime() - daysAgo * 86_400_000),
    },
  });
};
const deposit = async (userId: number, usdt: string) => {
  await ensureAccount(ctx.prisma, SYSTEM_ACCOUNTS.chainClearing);
  await ensureUserAccounts(ctx.prisma, userId);
  await transfer(ctx.prisma, {
    idempotencyKey: `q-deposit:${userId}:${usdt}`,
    type: 'deposit',
    legs: [
      { account: SYSTEM_ACCOUNTS.chainClearing, amount: -toMicro(usdt) },
      { account: userAccountCode(userId, 'main'), amount: toMicro(usdt) },
    ],
  });
};
const main = (userId: number) => balanceOf(ctx.prisma, userAccountCode(userId, 'main')).catch(() => 0n);
const house = () => balanceOf(ctx.prisma, SYSTEM_ACCOUNTS.house).catch(() => 0n);

describe('referral bonus: only to active paid licences', () => {
  it('three fresh accounts stacked above a PRO4 buyer get nothing; the house keeps all 1,200', async () => {
    const root = await newUser(null, 400);
    const f1 = await newUser(root.id);
    const f2 = await newUser(f1.id);
    const f3 = await newUser(f2.id);
    const buyer = await newUser(f3.id);
    await deposit(buyer.id, '1200');
    const houseBefore = await house();

    const bought = await updateUserLicense(ctx, { userId: buyer.id, level: 'PRO4' });
    expect(bought.charged).toBe('1200');
    for (const fresh of [f1, f2, f3]) expect(await main(fresh.id)).toBe(0n);
    expect((await house()) - houseBefore).toBe(toMicro('1200'));
    // Each line's share is recorded as forfeited, and no referral_bonus transfer was booked.
    const rows = await ctx.prisma.referralBonus.findMany({
      where: { purchase: { userId: buyer.id } },
      orderBy: { line: 'asc' },
    });
    expect(rows.map((r) => [r.uplineId, r.amount, r.paid, r.transferId])).toEqual([
      [f3.id, toMicro('360'), false, null],
      [f2.id, toMicro('96'), false, null],
      [f1.id, toMicro('60'), false, null],
    ]);
    // So there is nothing to move on.
    await expect(sendTransfer(ctx, { userId: f3.id, toUid: root.uid, summ: '1' })).rejects.toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
    });
    expect((await checkInvariants(ctx.prisma)).ok).toBe(true);
  });

  it('a paid upline gets its share; an expired paid one and a FREE one do not', async () => {
    const top = await newUser(null, 400);
    const paid = await newUser(top.id, 30);
    const expired = await newUser(paid.id, 400);
    const free = await newUser(expired.id);
    const buyer = await newUser(free.id);
    // Line 3 (paid): PRO1 bought with its own money; line 2: a PRO2 that ended yesterday.
    await deposit(paid.id, '100');
    await updateUserLicense(ctx, { userId: paid.id, level: 'PRO1' });
    await ctx.prisma.user.update({
      where: { id: expired.id },
      data: {
        licenseLevel: 'PRO2',
        licenseActiveFrom: new Date(now.getTime() - 366 * 86_400_000),
        licenseActiveUntil: new Date(now.getTime() - 86_400_000),
      },
    });
    await deposit(buyer.id, '1200');
    const houseBefore = await house();
    await updateUserLicense(ctx, { userId: buyer.id, level: 'PRO4' });
    expect(await main(free.id)).toBe(0n);
    expect(await main(expired.id)).toBe(0n);
    expect(await main(paid.id)).toBe(toMicro('60'));
    expect((await house()) - houseBefore).toBe(toMicro('1140'));
    expect((await checkInvariants(ctx.prisma)).ok).toBe(true);
  });

  it('a granted paid level (the operator, the demo) earns like a bought one', async () => {
    const sponsor = await newUser(null, 10);
    await grantLicense(ctx, { userId: sponsor.id, level: 'PRO1' });
    const buyer = await newUser(sponsor.id);
    await deposit(buyer.id, '100');
    await updateUserLicense(ctx, { userId: buyer.id, level: 'PRO1' });
    expect(await main(sponsor.id)).toBe(toMicro('30'));
  });
});

describe('matching bonus: only to active paid licences', () => {
  it('accrues nothing to a FREE upline even if the operator gave FREE matching generations', async () => {
    await ctx.prisma.licenseLevel.update({ where: { code: 'FREE' }, data: { matchingGenerations: 3 } });
    try {
      const free = await newUser(null);
      const paid = await newUser(free.id, 40);
      await grantLicense(ctx, { userId: paid.id, level: 'PRO3' });
      const partner = await newUser(paid.id);
      const trader = await newUser(partner.id);
      await ctx.prisma.$transaction((tx) =>
        accrueMatchingBonus(tx, {
          feeTransferId: 990_001n,
          partnerId: trader.id,
          fee: toMicro('10'),
          at: now,
        }),
      );
      const rows = await ctx.prisma.matchingAccrual.findMany({ where: { feeTransferId: 990_001n } });
      // Generation 1 is `partner` (FREE), 2 is `paid` (PRO3, 5 %), 3 is `free`.
      expect(rows.map((r) => [r.uplineId, r.generation, r.amount])).toEqual([[paid.id, 2, toMicro('0.5')]]);
    } finally {
      await ctx.prisma.licenseLevel.update({ where: { code: 'FREE' }, data: { matchingGenerations: 0 } });
    }
  });
});

describe('renewal window', () => {
  it('refuses a renewal outside [end − 30 days, end) and moves nothing', async () => {
    const user = await newUser(null, 400);
    await deposit(user.id, '1000');
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => 'renewed',
        (error: unknown) => (error instanceof AppError ? error.code : error),
      );
    const set = (untilDays: number) =>
      ctx.prisma.user.update({
        where: { id: user.id },
        data: {
          licenseLevel: 'PRO1',
          licenseActiveFrom: new Date(now.getTime() - 300 * 86_400_000),
          licenseActiveUntil: new Date(now.getTime() + untilDays * 86_400_000),
        },
      });
    const transfers = () => ctx.prisma.ledgerTransfer.count();
    const renew = (userId: number) => renewUserLicense(ctx, { userId });
    const before = { main: await main(user.id), transfers: await transfers() };
    await set(31);
    expect(await refusal(renew(user.id))).toBe('LICENSE_RENEWAL_UNAVAILABLE');
    await set(-0.001);
    expect(await refusal(renew(user.id))).toBe('LICENSE_RENEWAL_EXPIRED');
    expect({ main: await main(user.id), transfers: await transfers() }).toEqual(before);
    await set(29);
    expect(await refusal(renew(user.id))).toBe('renewed');
    expect(await main(user.id)).toBe(before.main - toMicro('80'));
  });
});
