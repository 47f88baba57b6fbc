import type { Prisma, Withdrawal } from '@gridbot/db';
import { fromMicro } from '@gridbot/ledger';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { assertNotFrozen, lockUserWithdrawals, releaseAtOf } from './withdrawal-guards';
import { refundWithdrawal } from './withdrawal-ledger';

/**
 * The operator's side of withdrawals above the automatic limit (docs/wallet.md#operator-cli):
 * list the pending ones, approve (the watcher then signs and broadcasts) or reject (the amount goes
 * back to the user's main balance and the user is notified). Each decision locks the row, so two
 * operators (or a double click) deciding the same withdrawal at once decide it once; anything not
 * pending is WITHDRAWAL_NOT_PENDING. The CLI and the operators' Telegram chat call these same
 * functions, and `decidedBy` records who decided (docs/operations.md#operators-chat).
 */

/** What a decision needs: the bot decides from the operators' chat with its data context. */
type DecideContext = Pick<ServiceContext, 'prisma' | 'env' | 'clock' | 'log'>;

export type PendingWithdrawal = {
  id: number;
  uid: number;
  username: string;
  kind: Withdrawal['kind'];
  amount: string;
  networkFee: string;
  toAddress: string;
  /** Why it waits for an operator (over the 24 h allowance, …). */
  reviewReason: string | null;
  createdAt: Date;
};

export const listPendingWithdrawals = async (ctx: DecideContext): Promise<PendingWithdrawal[]> => {
  const rows = await ctx.prisma.withdrawal.findMany({
    where: { status: 'pending' },
    orderBy: { id: 'asc' },
    include: { user: { select: { uid: true, username: true } } },
  });
  return rows.map((w) => ({
    id: w.id,
    uid: w.user.uid,
    username: w.user.username,
    kind: w.kind,
    amount: fromMicro(w.amount),
    networkFee: fromMicro(w.networkFee),
    toAddress: w.toAddress,
    reviewReason: w.reviewReason,
    createdAt: w.createdAt,
  }));
};

/**
 * The withdrawal, locked until the transaction ends, if it is still pending. Its owner's withdrawal
 * lock is taken first, in the order every request and freeze takes them.
 */
const lockPending = async (tx: Prisma.TransactionClient, id: number): Promise<Withdrawal> => {
  const owner = await tx.withdrawal.findUnique({ where: { id }, select: { userId: true } });
  if (!owner) throw new AppError('NOT_FOUND');
  await lockUserWithdrawals(tx, owner.userId);
  await tx.$queryRaw`SELECT id FROM withdrawals WHERE id = ${id} FOR UPDATE`;
  const withdrawal = await tx.withdrawal.findUnique({ where: { id } });
  if (!withdrawal) throw new AppError('NOT_FOUND');
  if (withdrawal.status !== 'pending') throw new AppError('WITHDRAWAL_NOT_PENDING');
  return withdrawal;
};

/** A withdrawal as the operators' chat shows a decision: its status and who decided. */
export const getWithdrawalDecision = (
  ctx: { prisma: ServiceContext['prisma'] },
  input: { withdrawalId: number },
) =>
  ctx.prisma.withdrawal.findUnique({
    where: { id: input.withdrawalId },
    select: {
      id: true,
      status: true,
      decidedBy: true,
      reason: true,
      approvedAt: true,
      finishedAt: true,
      updatedAt: true,
    },
  });

/**
 * Approves a pending withdrawal: the watcher signs it after the release delay, like an automatic
 * approval (docs/wallet.md#release). A frozen account's withdrawals cannot be approved until the
 * freeze is lifted (WITHDRAWALS_FROZEN).
 */
export const approveWithdrawal = async (
  ctx: DecideContext,
  input: { withdrawalId: number; operator: string },
): Promise<Withdrawal> => {
  const approved = await ctx.prisma.$transaction(async (tx) => {
    const pending = await lockPending(tx, input.withdrawalId);
    await assertNotFrozen(tx, ctx.env, pending.userId);
    const now = ctx.clock.now();
    return tx.withdrawal.update({
      where: { id: input.withdrawalId },
      data: {
        status: 'approved',
        decidedBy: input.operator,
        approvedAt: now,
        releaseAt: releaseAtOf(ctx.env, now),
      },
    });
  });
  ctx.log.info({ withdrawalId: approved.id, operator: input.operator }, 'withdrawal approved');
  return approved;
};

/**
 * Rejects a pending withdrawal: in one transaction the status, the refund to main (a keyed ledger
 * transfer, docs/ledger.md) and the user's notification — all or nothing.
 */
export const rejectWithdrawal = async (
  ctx: DecideContext,
  input: { withdrawalId: number; operator: string; reason: string },
): Promise<Withdrawal> => {
  const reason = input.reason.trim();
  if (reason === '') throw new AppError('VALIDATION', [{ path: 'reason', message: 'say why' }]);
  const rejected = await ctx.prisma.$transaction(async (tx) => {
    const withdrawal = await lockPending(tx, input.withdrawalId);
    const refund = await refundWithdrawal(tx, withdrawal);
    const updated = await tx.withdrawal.update({
      where: { id: withdrawal.id },
      data: {
        status: 'rejected',
        reason,
        decidedBy: input.operator,
        refundTransferId: refund.id,
        finishedAt: ctx.clock.now(),
      },
    });
    await tx.notification.create({
      data: {
        userId: withdrawal.userId,
        kind: 'withdrawal_rejected',
        data: { withdrawalId: withdrawal.id, amount: fromMicro(withdrawal.amount), reason },
        dedupeKey: `withdrawal_rejected:${withdrawal.id}`,
      },
    });
    return updated;
  });
  ctx.log.info({ withdrawalId: rejected.id, operator: input.operator }, 'withdrawal rejected and refunded');
  return rejected;
};
