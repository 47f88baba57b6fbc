import type { DataContext } from '../context/service-context';
import { AppError } from '../errors';
import { freezeInForce, liftableFromOf, lockUserWithdrawals } from './withdrawal-guards';
import { refundWithdrawal } from './withdrawal-ledger';

/**
 * "This wasn't me" (docs/wallet.md#freeze). Freezing stops every withdrawal of the user that has
 * not left yet and refuses new withdrawals and address changes until the freeze is lifted: by the
 * user after WITHDRAW_ADDRESS_LOCK_HOURS, or by an operator at any time. Who froze and who lifted
 * is kept in `wallet_freezes`.
 */

export type FreezeView = { since: string; liftableFrom: string; by: string };

export type FreezeResult = {
  /** False when a freeze was already in force (nothing more was done). */
  frozen: boolean;
  freeze: FreezeView;
  /** Withdrawals stopped (rejected and refunded) by this freeze. */
  stopped: number;
};

/** Why a withdrawal stopped by a freeze was rejected (shown to the user and the operators). */
export const FROZEN_REASON = 'stopped: withdrawals were frozen';

const viewOf = (ctx: DataContext, freeze: { frozenAt: Date; frozenBy: string }): FreezeView => ({
  since: freeze.frozenAt.toISOString(),
  liftableFrom: liftableFromOf(ctx.env, freeze).toISOString(),
  by: freeze.frozenBy,
});

/**
 * Freezes the user's withdrawals, in one transaction under the user's withdrawal lock:
 *
 * - the freeze row (at most one in force: a second press answers the first freeze);
 * - every withdrawal of the user not yet broadcast — pending, approved, or approved with a signed
 *   transaction the watcher has not sent — is rejected and refunded to main, with a
 *   `withdrawal_stopped` notice. Each is locked first: the watcher holds the same row lock while
 *   it broadcasts, so a withdrawal is either sent before the freeze (and left alone: it is gone) or
 *   stopped by it and never sent;
 * - a withdrawal address still locked (set less than the lock time ago, likely by whoever the
 *   owner is stopping) is removed, and so are exchange deposit addresses still locked: the owner
 *   sets their own again once the freeze is lifted.
 *
 * `by` names who froze: `user:telegram:<id>`, `user:app`, `operator:<name>`.
 */
export const freezeWithdrawals = async (
  ctx: DataContext,
  input: { userId: number; by: string },
): Promise<FreezeResult> => {
  const now = ctx.clock.now();
  const result = await ctx.prisma.$transaction(async (tx) => {
    await lockUserWithdrawals(tx, input.userId);
    const existing = await freezeInForce(tx, input.userId);
    if (existing) return { frozen: false, freeze: viewOf(ctx, existing), stopped: 0 };
    const freeze = await tx.walletFreeze.create({
      data: { userId: input.userId, frozenAt: now, frozenBy: input.by },
    });
    const ids = await tx.$queryRaw<Array<{ id: number }>>`
      SELECT id FROM withdrawals
       WHERE user_id = ${input.userId} AND status IN ('pending', 'approved')
       ORDER BY id FOR UPDATE`;
    let stopped = 0;
    for (const { id } of ids) {
      const w = await tx.withdrawal.findUniqueOrThrow({ where: { id } });
      // Re-read under the lock: one the watcher broadcast meanwhile has left and is not touched.
      if (w.status !== 'pending' && w.status !== 'approved') continue;
      const refund = await refundWithdrawal(tx, w);
      await tx.withdrawal.update({
        where: { id },
        data: {
          status: 'rejected',
          reason: FROZEN_REASON,
          decidedBy: input.by,
          refundTransferId: refund.id,
          finishedAt: now,
        },
      });
      await tx.notification.create({
        data: {
          userId: input.userId,
          kind: 'withdrawal_stopped',
          data: { amount: w.amount.toString(), toAddress: w.toAddress },
          dedupeKey: `withdrawal_stopped:${id}`,
          createdAt: now,
          nextAttemptAt: now,
        },
      });
      stopped += 1;
    }
    await tx.wallet.updateMany({
      where: { userId: input.userId, withdrawAddressUsableFrom: { gt: now } },
      data: { withdrawAddress: null, withdrawAddressUsableFrom: null },
    });
    await tx.exchangeDepositAddress.deleteMany({ where: { userId: input.userId, usableFrom: { gt: now } } });
    return { frozen: true, freeze: viewOf(ctx, freeze), stopped };
  });
  if (result.frozen) {
    ctx.log.warn({ userId: input.userId, by: input.by, stopped: result.stopped }, 'withdrawals frozen');
  }
  return result;
};

/**
 * Lifts the freeze in force. The user may lift it only from WITHDRAW_ADDRESS_LOCK_HOURS after it
 * began (FREEZE_LIFT_TOO_EARLY, naming when); an operator (`asOperator`) at any time. NOT_FROZEN
 * when none is in force.
 */
export const liftFreeze = async (
  ctx: DataContext,
  input: { userId: number; by: string; asOperator: boolean },
): Promise<{ liftedAt: string }> => {
  const now = ctx.clock.now();
  await ctx.prisma.$transaction(async (tx) => {
    await lockUserWithdrawals(tx, input.userId);
    const freeze = await freezeInForce(tx, input.userId);
    if (!freeze) throw new AppError('NOT_FROZEN');
    const liftableFrom = liftableFromOf(ctx.env, freeze);
    if (!input.asOperator && now < liftableFrom) {
      throw new AppError('FREEZE_LIFT_TOO_EARLY', undefined, liftableFrom);
    }
    await tx.walletFreeze.update({ where: { id: freeze.id }, data: { liftedAt: now, liftedBy: input.by } });
  });
  ctx.log.warn({ userId: input.userId, by: input.by }, 'withdrawal freeze lifted');
  return { liftedAt: now.toISOString() };
};

/** The freeze in force as the screens show it, or null. */
export const getFreeze = async (ctx: DataContext, input: { userId: number }): Promise<FreezeView | null> => {
  const freeze = await freezeInForce(ctx.prisma, input.userId);
  return freeze ? viewOf(ctx, freeze) : null;
};

/**
 * The "freeze withdrawals" button of a security notice (docs/wallet.md#freeze): the account is named
 * by its UID in the button, and only its owner — the Telegram user the account belongs to — may
 * press it. Anyone else (a forwarded message) freezes nothing.
 */
export const freezeFromTelegram = async (
  ctx: DataContext,
  input: { uid: number; telegramId: bigint },
): Promise<{ outcome: 'not_owner' } | ({ outcome: 'done'; userId: number } & FreezeResult)> => {
  const user = await ctx.prisma.user.findUnique({
    where: { uid: input.uid },
    select: { id: true, telegramId: true },
  });
  if (!user || user.telegramId !== input.telegramId) return { outcome: 'not_owner' };
  const result = await freezeWithdrawals(ctx, { userId: user.id, by: `user:telegram:${input.telegramId}` });
  return { outcome: 'done', userId: user.id, ...result };
};

/** The account an operator names by its public UID (NOT_FOUND when there is none). */
export const userIdOfUid = async (ctx: DataContext, input: { uid: number }): Promise<number> => {
  const user = await ctx.prisma.user.findUnique({ where: { uid: input.uid }, select: { id: true } });
  if (!user) throw new AppError('NOT_FOUND');
  return user.id;
};
