import type { Prisma } from '@gridbot/db';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { ensureWallet } from './create-wallet';
import { deriveDepositAddress, isTronAddress } from './tron-keys';
import { walletXpub } from './wallet-settings';
import { assertWithdrawDestination } from './withdraw-destination';
import { assertNotFrozen, lockUserWithdrawals, usableFromOf } from './withdrawal-guards';

export type WithdrawAddressView = { withdrawAddress: string; usableFrom: string };

/**
 * The owner's notice of a new withdrawal address (docs/notifications.md#kinds), in the change's own
 * transaction: it cannot be switched off and carries the "freeze withdrawals" button.
 */
export const queueAddressNotice = async (
  tx: Prisma.TransactionClient,
  input: { userId: number; address: string; target: 'address' | 'exchange'; at: Date; usableFrom: Date },
) => {
  await tx.notification.create({
    data: {
      userId: input.userId,
      kind: 'withdraw_address_changed',
      data: {
        address: input.address,
        target: input.target,
        changedAt: input.at.toISOString(),
        usableFrom: input.usableFrom.toISOString(),
      },
      dedupeKey: `withdraw_address_changed:${input.userId}:${input.target}:${input.address}:${input.at.getTime()}`,
      createdAt: input.at,
      nextAttemptAt: input.at,
    },
  });
};

/**
 * Sets the address in one transaction under the user's withdrawal lock: refused while withdrawals
 * are frozen, locked until now + WITHDRAW_ADDRESS_LOCK_HOURS (docs/wallet.md#address-lock), and the
 * owner's notice queued with it. `expectSaved`: whether an address must already be saved (change)
 * or must not be (first save).
 */
const setAddress = async (
  ctx: ServiceContext,
  input: { userId: number; address: string },
  expectSaved: boolean,
): Promise<WithdrawAddressView> => {
  const now = ctx.clock.now();
  const usableFrom = usableFromOf(ctx.env, now);
  return ctx.prisma.$transaction(async (tx) => {
    await lockUserWithdrawals(tx, input.userId);
    await assertNotFrozen(tx, ctx.env, input.userId);
    const wallet = await tx.wallet.findUniqueOrThrow({ where: { userId: input.userId } });
    if (expectSaved && !wallet.withdrawAddress) throw new AppError('WITHDRAW_ADDRESS_MISSING');
    if (!expectSaved && wallet.withdrawAddress) throw new AppError('WITHDRAW_ADDRESS_EXISTS');
    if (wallet.withdrawAddress === input.address) {
      // The same address again is no change: its lock stays as it was.
      const from = wallet.withdrawAddressUsableFrom ?? wallet.updatedAt;
      return { withdrawAddress: input.address, usableFrom: from.toISOString() };
    }
    await tx.wallet.update({
      where: { userId: input.userId },
      data: { withdrawAddress: input.address, withdrawAddressUsableFrom: usableFrom },
    });
    await queueAddressNotice(tx, { ...input, target: 'address', at: now, usableFrom });
    ctx.log.info(
      { userId: input.userId, usableFrom },
      expectSaved ? 'withdrawal address changed' : 'withdrawal address saved',
    );
    return { withdrawAddress: input.address, usableFrom: usableFrom.toISOString() };
  });
};

/** Saves the first withdrawal address; WITHDRAW_ADDRESS_EXISTS when one is saved already. */
export const saveWithdrawAddress = async (
  ctx: ServiceContext,
  input: { userId: number; address: string },
): Promise<WithdrawAddressView> => {
  if (!isTronAddress(input.address)) throw new AppError('WITHDRAW_ADDRESS_FORMAT');
  await assertNotFrozen(ctx.prisma, ctx.env, input.userId);
  // Every check before the wallet is made, so a refusal creates nothing: the user's own deposit
  // address is derived (not yet in the table when the wallet does not exist).
  const existing = await ctx.prisma.wallet.findUnique({ where: { userId: input.userId } });
  const own = existing?.depositAddress ?? deriveDepositAddress(walletXpub(ctx.env), input.userId);
  if (input.address === own) throw new AppError('WITHDRAW_ADDRESS_IS_DEPOSIT');
  await assertWithdrawDestination(ctx, input);
  await ensureWallet(ctx, input.userId);
  return setAddress(ctx, input, false);
};

/**
 * Replaces the saved address; WITHDRAW_ADDRESS_MISSING when none is saved. Withdrawals already
 * requested keep the address they were made to.
 */
export const changeWithdrawAddress = async (
  ctx: ServiceContext,
  input: { userId: number; address: string },
): Promise<WithdrawAddressView> => {
  if (!isTronAddress(input.address)) throw new AppError('WITHDRAW_ADDRESS_FORMAT');
  const wallet = await ctx.prisma.wallet.findUnique({ where: { userId: input.userId } });
  if (!wallet?.withdrawAddress) throw new AppError('WITHDRAW_ADDRESS_MISSING');
  await assertNotFrozen(ctx.prisma, ctx.env, input.userId);
  await assertWithdrawDestination(ctx, input);
  return setAddress(ctx, input, true);
};
