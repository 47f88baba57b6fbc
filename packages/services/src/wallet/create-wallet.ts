import {
  type createWallet,
  type getDepositAddress,
  MIN_DEPOSIT_USDT,
  USDT_NETWORK,
} from '@gridbot/contracts';
import type { Wallet } from '@gridbot/db';
import { ensureUserAccounts } from '@gridbot/ledger';
import type { z } from 'zod';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { deriveDepositAddress } from './tron-keys';
import { DEPOSIT_CONFIRMATIONS, walletXpub } from './wallet-settings';

/**
 * The user's wallet row, created on first use: the deposit address is the child `0/<user id>` of
 * the operator's key (docs/wallet.md#deposits). The user id is stable, never reused and unique,
 * so the derivation index and the address are too (both columns are unique besides). Concurrent
 * callers insert with ON CONFLICT DO NOTHING and all read the one row.
 */
export const ensureWallet = async (
  ctx: ServiceContext,
  userId: number,
): Promise<{ wallet: Wallet; created: boolean }> => {
  const existing = await ctx.prisma.wallet.findUnique({ where: { userId } });
  if (existing) return { wallet: existing, created: false };
  const depositAddress = deriveDepositAddress(walletXpub(ctx.env), userId);
  // The ledger accounts come with the wallet: the list and every move find them.
  await ensureUserAccounts(ctx.prisma, userId);
  const { count } = await ctx.prisma.wallet.createMany({
    data: [{ userId, derivationIndex: userId, depositAddress }],
    skipDuplicates: true,
  });
  const wallet = await ctx.prisma.wallet.findUniqueOrThrow({ where: { userId } });
  if (count === 1) ctx.log.info({ userId, depositAddress }, 'wallet created');
  return { wallet, created: count === 1 };
};

export const createUserWallet = async (
  ctx: ServiceContext,
  input: { userId: number },
): Promise<z.input<(typeof createWallet)['response']>> => {
  const { wallet, created } = await ensureWallet(ctx, input.userId);
  return {
    depositAddress: wallet.depositAddress,
    network: USDT_NETWORK,
    created,
    createdAt: wallet.createdAt.toISOString(),
  };
};

/** The deposit screen: the address (DEPOSIT_ADDRESS_NOT_FOUND before create_wallet) and the rules. */
export const getUserDepositAddress = async (
  ctx: ServiceContext,
  input: { userId: number },
): Promise<z.input<(typeof getDepositAddress)['response']>> => {
  const wallet = await ctx.prisma.wallet.findUnique({
    where: { userId: input.userId },
    select: { depositAddress: true },
  });
  if (!wallet) throw new AppError('DEPOSIT_ADDRESS_NOT_FOUND');
  return {
    depositAddress: wallet.depositAddress,
    network: USDT_NETWORK,
    token: 'USDT',
    contract: ctx.env.USDT_CONTRACT,
    minDeposit: MIN_DEPOSIT_USDT,
    confirmations: DEPOSIT_CONFIRMATIONS,
  };
};
