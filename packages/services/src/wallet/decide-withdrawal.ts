import type { Prisma, Withdrawal } from '@gridbot/db';
import { fromMicro } from '@gridbot/ledger';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { refundWithdrawal } from './withdrawal-ledger';

/**
 * The operator's side of withdrawals above the automatic limit (docs/wallet.md#operator-cli):
 * list the pending ones, approve (the watcher then signs and broadcasts) or reject (the amount goes
 * back to the user's main balance and the user is notified). Each decision locks the row, so two
 * operators (or a double click) deciding the same withdrawal at once decide it once; anything not
 * pending is WITHDRAWAL_NOT_PENDING.
 */

export type PendingWithdrawal = {
  id: number;
  uid: number;
  username: string;
  kind: Withdrawal['kind'];
  amount: string;
  networkFee: string;
  toAddress: string;
  createdAt: Date;
};

export const listPendingWithdrawals = async (ctx: ServiceContext): Promise<PendingWithdrawal[]> => {
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
    createdAt: w.createdAt,
  }));
};

/** The withdrawal, locked until the transaction ends, if it is still pending. */
const lockPending = async (tx: Prisma.TransactionClient, id: number): Promise<Withdrawal> => {
  await tx.$queryRaw`SELECT id FROM withdrawals WHERE id = ${id} FOR UPDATE`;
  const withdrawal = await tx.withdrawal.findUnique({ where: { id } });
  if (!withdrawal) throw new AppError('NOT_FOUND');
  if (withdrawal.status !== 'pending') throw new AppError('WITHDRAWAL_NOT_PENDING');
  return withdrawal;
};

export const approveWithdrawal = async (
  ctx: ServiceContext,
  input: { withdrawalId: number; operator: string },
): Promise<Withdrawal> => {
  const approved = await ctx.prisma.$transaction(async (tx) => {
    await lockPending(tx, input.withdrawalId);
    return tx.withdrawal.update({
      where: { id: input.withdrawalId },
      data: { status: 'approved', decidedBy: input.operator, approvedAt: ctx.clock.now() },
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
  ctx: ServiceContext,
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
