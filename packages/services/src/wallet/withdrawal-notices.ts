import type { Prisma, Withdrawal } from '@gridbot/db';
import { queueOperatorAlert } from '../operators/queue-operator-alert';

/**
 * The notices a withdrawal's steps write in their own transaction (docs/wallet.md#protections):
 * the owner's `withdrawal_requested` (the watcher signs nothing before it was sent), and the
 * operators' `withdrawal_pending` when it waits for a person.
 */

/** The dedupe key of a withdrawal's `withdrawal_requested` notice: the watcher looks it up by this. */
export const requestNoticeKey = (withdrawalId: number) => `withdrawal_requested:${withdrawalId}`;

export const queueRequestNotice = async (tx: Prisma.TransactionClient, w: Withdrawal) => {
  await tx.notification.create({
    data: {
      userId: w.userId,
      kind: 'withdrawal_requested',
      data: {
        withdrawalId: w.id,
        amount: w.amount.toString(),
        toAddress: w.toAddress,
        requestedAt: w.createdAt.toISOString(),
      },
      dedupeKey: requestNoticeKey(w.id),
      createdAt: w.createdAt,
      nextAttemptAt: w.createdAt,
    },
  });
};

/** Review reasons the operators read (English: the operators' chat is English only). */
export const REVIEW_REASONS = {
  overAllowance: 'over the 24 h allowance',
  noticeUndelivered: "the owner's Telegram notice could not be delivered",
} as const;

export const queuePendingAlert = async (
  tx: Prisma.TransactionClient,
  w: Withdrawal,
  reason: string,
  at: Date,
) => {
  const user = await tx.user.findUniqueOrThrow({
    where: { id: w.userId },
    select: { uid: true, username: true },
  });
  await queueOperatorAlert(tx, {
    kind: 'withdrawal_pending',
    data: {
      withdrawalId: w.id,
      uid: user.uid,
      username: user.username,
      amount: w.amount.toString(),
      toAddress: w.toAddress,
      reason,
    },
    dedupeKey: `withdrawal_pending:${w.id}`,
    at,
  });
};
