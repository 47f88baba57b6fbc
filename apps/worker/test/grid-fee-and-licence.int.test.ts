import { balanceOf, checkInvariants, fromMicro, userAccountCode } from '@gridbot/ledger';
import { fundWallet, grantLicense } from '@gridbot/services';
import { afterEach, describe, expect, it } from 'vitest';
import { createGridHarness, expectTradeFeesOncePerLot, type Harness } from './support/grid-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('the platform trading fee on closed lots', () => {
  it('charges 20 % of each profitable lot once, however often the fills are seen', async () => {
    h = await createGridHarness();
    await h.reconcile(); // entry at 1
    h.setPrice('0.99');
    await h.reconcile(); // averaging buy at 0.99
    h.setPrice('1.02');
    await h.reconcile(); // both take profits fill: two lots close with a profit
    // The same fills seen again by other workers and later passes change nothing.
    await Promise.all([h.reconcile('worker-b'), h.reconcile('worker-c'), h.reconcile()]);
    const { lots, total } = await expectTradeFeesOncePerLot(h);
    expect(lots).toBe(2);
    expect(total).toBeGreaterThan(0n);

    // The deal and the coin show what was charged.
    const [first] = await h.closedLots();
    expect(first?.tradeFee).toBeGreaterThan(0n);
  });

  it('an empty fee balance dries the bot (sells continue) and a top-up lets it buy again', async () => {
    // A fee balance smaller than one lot's fee: the first profitable sale takes it below zero.
    h = await createGridHarness({ feeBalance: '0.001' });
    await h.reconcile(); // entry at 1 (fee balance > 0)
    h.setPrice('0.99');
    await h.reconcile(); // second lot at 0.99
    h.setPrice('1.0');
    await h.reconcile(); // lot 2 sells at 0.9999: its fee takes the balance below zero
    const fee = userAccountCode(h.bot.userId, 'fee');
    const balance = await balanceOf(h.prisma, fee);
    expect(balance).toBeLessThan(0n); // booked in full, never capped
    await expectTradeFeesOncePerLot(h, '0.001');

    // Dry: no averaging buy is offered any more, the remaining lot's take profit stays.
    await h.reconcile();
    expect(await h.ladder()).toEqual(['sell@1.0100']);
    const log = await h.prisma.coinActivity.findMany({
      where: { coinBotId: h.bot.id, kind: 'dry_on', actor: 'fee_balance' },
    });
    expect(log).toHaveLength(1);
    expect(log[0]?.data).toMatchObject({ reason: 'fee_balance_empty', feeBalanceMicro: balance.toString() });
    const notes = await h.prisma.notification.findMany({ where: { userId: h.bot.userId } });
    expect(notes.map((n) => n.kind)).toEqual(['fee_balance_empty']);

    // The last lot sells while dry; no entry follows.
    h.setPrice('1.02');
    await h.reconcile();
    await h.reconcile();
    expect(await h.openLots()).toHaveLength(0);
    expect(await h.ladder()).toEqual([]);

    // Topping up above zero lifts the reason: the next pass enters again.
    await fundWallet(h.prisma, { userId: h.bot.userId, deposit: '5', fee: '5', key: 'top-up' });
    expect(await balanceOf(h.prisma, fee)).toBeGreaterThan(0n);
    await h.reconcile();
    expect(await h.openLots()).toHaveLength(1);
    expect((await checkInvariants(h.prisma)).ok).toBe(true);
    // Only the first crossing below zero was announced.
    expect(await h.prisma.notification.count({ where: { userId: h.bot.userId } })).toBe(1);
    expect(fromMicro(await balanceOf(h.prisma, fee))).not.toBe('0');
  });

  it('an expired licence dries the bot (sells continue) until the licence is bought', async () => {
    h = await createGridHarness();
    await h.reconcile(); // entry at 1 on a fresh FREE licence
    expect(await h.ladder()).toEqual(['buy@0.9900', 'sell@1.0100']);
    // FREE is valid 14 days from registration: registered 15 days ago, it has expired.
    await h.prisma.user.update({
      where: { id: h.bot.userId },
      data: { createdAt: new Date(Date.now() - 15 * 86_400_000) },
    });
    await h.reconcile();
    expect(await h.ladder()).toEqual(['sell@1.0100']); // no averaging buy, the take profit stays
    h.setPrice('1.02');
    await h.reconcile();
    await h.reconcile();
    expect(await h.openLots()).toHaveLength(0); // sold while dry, no new entry
    expect(await h.ladder()).toEqual([]);

    await grantLicense(h.contextFor(), { userId: h.bot.userId, level: 'PRO1' });
    await h.reconcile();
    expect(await h.openLots()).toHaveLength(1);
  });
});
