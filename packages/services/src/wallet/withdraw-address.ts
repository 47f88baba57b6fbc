import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { ensureWallet } from './create-wallet';
import { isTronAddress } from './tron-keys';

/**
 * The full check behind 'Withdrawal address format error' (the contract only checks the shape):
 * base58check with a valid checksum and the 0x41 prefix. The user's own deposit address is refused
 * too: a withdrawal to it would pay the network fee to come back as a deposit.
 */
const assertWithdrawAddress = (address: string, depositAddress: string): void => {
  if (!isTronAddress(address)) throw new AppError('WITHDRAW_ADDRESS_FORMAT');
  if (address === depositAddress) throw new AppError('WITHDRAW_ADDRESS_IS_DEPOSIT');
};

/** Saves the first withdrawal address; WITHDRAW_ADDRESS_EXISTS when one is saved already. */
export const saveWithdrawAddress = async (
  ctx: ServiceContext,
  input: { userId: number; address: string },
): Promise<{ withdrawAddress: string }> => {
  if (!isTronAddress(input.address)) throw new AppError('WITHDRAW_ADDRESS_FORMAT');
  const { wallet } = await ensureWallet(ctx, input.userId);
  assertWithdrawAddress(input.address, wallet.depositAddress);
  // Conditional: of two concurrent first saves, one wins and the other is told an address exists.
  const { count } = await ctx.prisma.wallet.updateMany({
    where: { userId: input.userId, withdrawAddress: null },
    data: { withdrawAddress: input.address },
  });
  if (count === 0) throw new AppError('WITHDRAW_ADDRESS_EXISTS');
  return { withdrawAddress: input.address };
};

/**
 * Replaces the saved address; WITHDRAW_ADDRESS_MISSING when none is saved. Withdrawals already
 * requested keep the address they were made to.
 */
export const changeWithdrawAddress = async (
  ctx: ServiceContext,
  input: { userId: number; address: string },
): Promise<{ withdrawAddress: string }> => {
  if (!isTronAddress(input.address)) throw new AppError('WITHDRAW_ADDRESS_FORMAT');
  const wallet = await ctx.prisma.wallet.findUnique({ where: { userId: input.userId } });
  if (!wallet?.withdrawAddress) throw new AppError('WITHDRAW_ADDRESS_MISSING');
  assertWithdrawAddress(input.address, wallet.depositAddress);
  await ctx.prisma.wallet.updateMany({
    where: { userId: input.userId, withdrawAddress: { not: null } },
    data: { withdrawAddress: input.address },
  });
  return { withdrawAddress: input.address };
};
