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
import { payNetworkExpansionBonuses } from '../../src/bonus/network-expansion';
import type { ServiceContext } from '../../src/context/service-context';
import { queueLicenseNotices } from '../../src/license/license-notices';
import { updateUserLicense } from '../../src/license/license-purchase';
import { createTestContext } from '../../src/testing';

let db: Awaited<ReturnType<typeof createTestDb>>;
let ctx: ServiceContext;
let now = new Date('2026-04-05T12:00:00Z');
let seq = 0;
const DAY = 86_400_000;

beforeAll(async () => {
  db = await createTestDb();
  ctx = createTestContext({ prisma: db.prisma, clock: { now: () => now } });
});
afterAll(async () => db.close());

const newUser = async (sponsorId: number | null, registeredAt = now) => {
  seq += 1;
  return ctx.prisma.user.create({
    data: {
      telegramId: BigInt(700_000 + seq),
      username: `nx_${seq}`,
      usernameKey: `nx_${seq}`,
      firstName: 'N',
      referralCode: `nx${seq}`,
      sponsorId,
      createdAt: registeredAt,
    },
  });
};
const deposit = async (userId: number, usdt: string) => {
  await ensureAccount(ctx.prisma, SYSTEM_ACCOUNTS.chainClearing);
  await ensureUserAccounts(ctx.prisma, userId);
  await transfer(ctx.prisma, {
    idempotencyKey: `nx-deposit:${userId}:${usdt}`,
    type: 'deposit',
    legs: [
      { account: SYSTEM_ACCOUNTS.chainClearing, amount: -toMicro(usdt) },
      { account: userAccountCode(userId, 'main'), amount: toMicro(usdt) },
    ],
  });
};
const buy = async (userId: number, level: string, usdt: string) => {
  await deposit(userId, usdt);
  await updateUserLicense(ctx, { userId, level });
};
const main = (userId: number) => balanceOf(ctx.prisma, userAccountCode(userId, 'main')).catch(() => 0n);

describe('network expansion bonus', () => {
  it('pays 5 % of the month pool to paying users with 2 new PRO1+ partners, once, on the 1st', async () => {
    // April: q (PRO1) gets three new line-1 partners, two of whom buy; one of them brings a line-2
    // partner who buys too. r has only one buyer: not qualified. An old partner's purchase is not in
    // the pool. f, a FREE account registered late in the month (its 14 days still running at the
    // month's end), has two buyers too: FREE earns nothing.
    const q = await newUser(null, new Date('2026-01-01T00:00:00Z'));
    await buy(q.id, 'PRO1', '100');
    const r = await newUser(null, new Date('2026-01-01T00:00:00Z'));
    const old = await newUser(q.id, new Date('2026-03-01T00:00:00Z'));
    const p1 = await newUser(q.id);
    const p2 = await newUser(q.id);
    await newUser(q.id);
    const p4 = await newUser(p1.id);
    const r1 = await newUser(r.id);
    await buy(p1.id, 'PRO1', '100');
    await buy(p2.id, 'PRO2', '300');
    await buy(p4.id, 'PRO3', '600');
    await buy(old.id, 'PRO4', '1200');
    await buy(r1.id, 'PRO1', '100');
    now = new Date('2026-04-25T12:00:00Z');
    const f = await newUser(null);
    const f1 = await newUser(f.id);
    const f2 = await newUser(f.id);
    await buy(f1.id, 'PRO1', '100');
    await buy(f2.id, 'PRO1', '100');
    const before = await main(q.id);
    const houseBefore = await balanceOf(ctx.prisma, SYSTEM_ACCOUNTS.house);

    // Not before the month has ended.
    expect((await payNetworkExpansionBonuses(ctx, { month: '2026-04' })).paid).toBe(0);
    now = new Date('2026-05-01T00:10:00Z');
    const runs = await Promise.all([payNetworkExpansionBonuses(ctx), payNetworkExpansionBonuses(ctx)]);
    const again = await payNetworkExpansionBonuses(ctx);
    expect(runs[0].paid + runs[1].paid + again.paid).toBe(1);
    // Pool: 100 + 300 + 600 (the old partner's 1,200 is not in it) → 5 % = 50.
    expect((await main(q.id)) - before).toBe(toMicro('50'));
    // f's 5 % of 200 stays with the house: only q's payout left it.
    expect(await main(f.id)).toBe(0n);
    expect(houseBefore - (await balanceOf(ctx.prisma, SYSTEM_ACCOUNTS.house))).toBe(toMicro('50'));
    expect(
      await ctx.prisma.networkExpansionPayout.findMany({
        select: { userId: true, pool: true, amount: true },
      }),
    ).toEqual([{ userId: q.id, pool: toMicro('1000'), amount: toMicro('50') }]);
    const payout = await ctx.prisma.ledgerTransfer.findFirstOrThrow({
      where: { idempotencyKey: `network_expansion:${q.id}:2026-04` },
    });
    expect(payout.type).toBe('referral_bonus');
    expect(payout.memo).toMatchObject({ kind: 'network_expansion', month: '2026-04' });
    expect((await checkInvariants(ctx.prisma)).ok).toBe(true);
  });
});

describe('licence notices', () => {
  it('queues 7-day, 1-day and expired notices once per licence period', async () => {
    now = new Date('2026-06-01T00:00:00Z');
    const user = await newUser(null, new Date('2026-05-20T00:00:00Z')); // FREE: ends 2026-06-03
    const paid = await newUser(null, new Date('2026-01-01T00:00:00Z'));
    await ctx.prisma.user.update({
      where: { id: paid.id },
      data: {
        licenseLevel: 'PRO1',
        licenseActiveFrom: new Date('2025-06-07T00:00:00Z'),
        licenseActiveUntil: new Date('2026-06-07T00:00:00Z'),
      },
    });
    const kinds = async (userId: number) =>
      (await ctx.prisma.notification.findMany({ where: { userId }, orderBy: { id: 'asc' } })).map((n) => [
        n.kind,
        (n.data as { daysLeft?: number } | null)?.daysLeft ?? null,
      ]);
    await queueLicenseNotices(ctx);
    await queueLicenseNotices(ctx);
    expect(await kinds(user.id)).toEqual([['license_expiring', 2]]);
    expect(await kinds(paid.id)).toEqual([['license_expiring', 6]]);
    now = new Date('2026-06-02T12:00:00Z');
    await Promise.all([queueLicenseNotices(ctx), queueLicenseNotices(ctx)]);
    expect(await kinds(user.id)).toEqual([
      ['license_expiring', 2],
      ['license_expiring', 1],
    ]);
    now = new Date('2026-06-08T00:00:00Z');
    await queueLicenseNotices(ctx);
    await queueLicenseNotices(ctx);
    expect((await kinds(user.id)).at(-1)).toEqual(['license_expired', null]);
    expect(await kinds(paid.id)).toEqual([
      ['license_expiring', 6],
      ['license_expired', null],
    ]);
    // Long expired: nothing new.
    now = new Date(now.getTime() + 30 * DAY);
    await queueLicenseNotices(ctx);
    expect(await ctx.prisma.notification.count({ where: { userId: { in: [user.id, paid.id] } } })).toBe(5);
  });
});
