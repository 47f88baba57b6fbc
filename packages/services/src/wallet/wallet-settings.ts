import { randomUUID } from 'node:crypto';
import type { Env } from '@gridbot/config';
import { MIN_DEPOSIT_USDT, MIN_WITHDRAW_USDT } from '@gridbot/contracts';
import { toMicro } from '@gridbot/ledger';
import { AppError } from '../errors';
import { demoXpub } from './tron-keys';

/** Blocks until a deposit is final on TRON: solidified, about 19 blocks (docs/wallet.md#deposits). */
export const DEPOSIT_CONFIRMATIONS = 19;

/**
 * The operator's extended public key the deposit addresses derive from. The demo falls back to its
 * test phrase; anywhere else (tests included) a missing key is WALLET_NOT_CONFIGURED, never a
 * silent fallback to a phrase whose private keys are public.
 */
export const walletXpub = (env: Env): string => {
  if (env.WALLET_XPUB) return env.WALLET_XPUB;
  if (env.DEMO) return demoXpub();
  throw new AppError('WALLET_NOT_CONFIGURED');
};

/** The wallet's amounts in micro-USDT: minimums of the product, fee and approval limit of the operator. */
export const walletAmounts = (env: Env) => ({
  minDeposit: toMicro(MIN_DEPOSIT_USDT),
  minWithdraw: toMicro(MIN_WITHDRAW_USDT),
  withdrawFee: toMicro(env.WITHDRAW_FEE_USDT),
  autoApproveUpTo: toMicro(env.WITHDRAW_AUTO_APPROVE_USDT),
});

/**
 * The key a money move is booked under (docs/wallet.md#retries). With the client's
 * `Idempotency-Key` it is one per user whatever the action (`move:<user>:<key>`): a retry of the
 * same request moves nothing new, and the key reused for another action or other data meets the
 * ledger's comparison of type and legs, REQUEST_CONFLICT, moving nothing. Without a key every
 * request is a new one (`<action>:<user>:<random>`).
 */
export const moveKey = (action: string, userId: number, idempotencyKey: string | undefined): string =>
  idempotencyKey ? `move:${userId}:${idempotencyKey}` : `${action}:${userId}:${randomUUID()}`;
