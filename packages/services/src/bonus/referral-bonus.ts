import type { Prisma } from '@gridbot/db';
import { splitReferralBonus } from '@gridbot/domain';
import { openAccounts, SYSTEM_ACCOUNTS, transfer, userAccountCode } from '@gridbot/ledger';
import { bonusUplines } from './uplines';

type Tx = Prisma.TransactionClient;

/** The key of a licence payment's referral bonus transfer: one per payment. */
export const referralBonusKey = (purchaseTransferId: bigint) => `referral_bonus:${purchaseTransferId}`;

/**
 * Pays the referral bonus of one licence payment (docs/bonuses.md#referral-bonus), inside the
 * payment's transaction: the payment has just gone to system:house in full; this moves 30 / 8 / 5 %
 * of it from the house to lines 1–3 whose licence is active now, as one `referral_bonus` transfer
 * (keyed by the payment, so it is paid once), and records every line's share — paid or forfeited
 * to the house — for the partner pages. Returns the micro-USDT paid out.
 */
export const payReferralBonus = async (
  tx: Tx,
  payment: {
    purchaseId: bigint;
    purchaseTransferId: bigint;
    payerId: number;
    level: string;
    amount: bigint;
    at: Date;
  },
): Promise<bigint> => {
  const split = splitReferralBonus(payment.amount, await bonusUplines(tx, payment.payerId, payment.at));
  const paid = split.shares.filter((share) => share.paid && share.amount > 0n);
  let transferId: bigint | null = null;
  if (paid.length > 0) {
    const codes = paid.map((share) => userAccountCode(share.userId, 'main'));
    await openAccounts(tx, codes);
    const booked = await transfer(tx, {
      idempotencyKey: referralBonusKey(payment.purchaseTransferId),
      type: 'referral_bonus',
      memo: {
        kind: 'referral',
        level: payment.level,
        purchaseTransferId: payment.purchaseTransferId.toString(),
        payerId: payment.payerId,
      },
      legs: [
        { account: SYSTEM_ACCOUNTS.house, amount: -split.paidOut },
        ...paid.map((share) => ({ account: userAccountCode(share.userId, 'main'), amount: share.amount })),
      ],
    });
    transferId = booked.id;
    await tx.notification.createMany({
      data: paid.map((share) => ({
        userId: share.userId,
        kind: 'bonus_credited',
        data: { bonus: 'referral_bonus', amount: share.amount.toString() },
        dedupeKey: `bonus_credited:${booked.id}:${share.userId}`,
      })),
      skipDuplicates: true,
    });
  }
  await tx.referralBonus.createMany({
    data: split.shares.map((share) => ({
      purchaseId: payment.purchaseId,
      uplineId: share.userId,
      line: share.line,
      ratePct: share.ratePct,
      amount: share.amount,
      paid: share.paid,
      transferId: share.paid && share.amount > 0n ? transferId : null,
      createdAt: payment.at,
    })),
    skipDuplicates: true,
  });
  return split.paidOut;
};
