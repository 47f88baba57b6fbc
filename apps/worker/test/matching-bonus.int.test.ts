import { balanceOf, checkInvariants, SYSTEM_ACCOUNTS, userAccountCode } from '@gridbot/ledger';
import { grantLicense, payMatchingBonuses } from '@gridbot/services';
import { createTestContext } from '@gridbot/services/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createGridHarness, expectTradeFeesOncePerLot, type Harness } from './support/grid-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const DAY = 86_400_000;

describe('matching bonus on trading fees', () => {
  it('accrues 10 / 5 / 3 % per fee within each upline licence, once, and pays each upline once a day', {
    timeout: 180_000,
  }, async () => {
    h = await createGridHarness();
    const { prisma } = h;
    const ctx = h.contextFor();
    // The trader's line: g1 on PRO2 (earns generation 1), g2 on PRO1 (pays only 1 generation: earns
    // nothing on generation 2), g3 on PRO3 (earns generation 3), g4 above them earns nothing.
    const upline = async (name: string, level: string | null, sponsorId: number | null) => {
      const user = await prisma.user.create({
        data: {
          telegramId: BigInt(1000 + name.length + name.charCodeAt(1)),
          username: name,
          usernameKey: name,
          firstName: name,
          referralCode: name,
          sponsorId,
        },
      });
      if (level) await grantLicense(ctx, { userId: user.id, level });
      return user;
    };
    const g4 = await upline('g4x', 'PRO4', null);
    const g3 = await upline('g3x', 'PRO3', g4.id);
    const g2 = await upline('g2x', 'PRO1', g3.id);
    const g1 = await upline('g1x', 'PRO2', g2.id);
    await prisma.user.update({ where: { id: h.bot.userId }, data: { sponsorId: g1.id } });

    await h.reconcile(); // entry at 1
    h.setPrice('0.99');
    await h.reconcile(); // averaging buy
    h.setPrice('1.02');
    await h.reconcile(); // two lots close with a profit: two fees
    await Promise.all([h.reconcile('worker-b'), h.reconcile('worker-c'), h.reconcile()]);
    const { lots, total } = await expectTradeFeesOncePerLot(h);
    expect(lots).toBe(2);

    const accruals = await prisma.matchingAccrual.findMany({
      orderBy: [{ feeTransferId: 'asc' }, { generation: 'asc' }],
    });
    expect(accruals.map((a) => [a.uplineId, a.generation])).toEqual([
      [g1.id, 1],
      [g3.id, 3],
      [g1.id, 1],
      [g3.id, 3],
    ]);
    const owed = (userId: number) =>
      accruals.filter((a) => a.uplineId === userId).reduce((sum, a) => sum + a.amount, 0n);
    expect(owed(g1.id)).toBe(
      accruals.filter((a) => a.generation === 1).reduce((s, a) => s + a.fee / 10n, 0n),
    );
    expect(owed(g1.id) + owed(g3.id)).toBeLessThanOrEqual(total);

    // Today's accruals wait for the day to close.
    expect((await payMatchingBonuses(ctx)).paid).toBe(0);
    const feesBefore = await balanceOf(prisma, SYSTEM_ACCOUNTS.fees);

    // Tomorrow: the payout runs twice concurrently and once more; each upline is paid once.
    const tomorrow = createTestContext({ prisma, clock: { now: () => new Date(Date.now() + DAY) } });
    const runs = await Promise.all([payMatchingBonuses(tomorrow), payMatchingBonuses(tomorrow)]);
    const again = await payMatchingBonuses(tomorrow);
    expect(runs[0].paid + runs[1].paid + again.paid).toBe(2);
    expect(runs[0].failed + runs[1].failed + again.failed).toBe(0);

    expect(await balanceOf(prisma, userAccountCode(g1.id, 'main'))).toBe(owed(g1.id));
    expect(await balanceOf(prisma, userAccountCode(g3.id, 'main'))).toBe(owed(g3.id));
    expect(feesBefore - (await balanceOf(prisma, SYSTEM_ACCOUNTS.fees))).toBe(owed(g1.id) + owed(g3.id));
    const payouts = await prisma.ledgerTransfer.findMany({ where: { type: 'matching_bonus' } });
    expect(payouts).toHaveLength(2);
    expect(await prisma.matchingAccrual.count({ where: { payoutTransferId: null } })).toBe(0);
    expect((await checkInvariants(prisma)).ok).toBe(true);
  });
});
