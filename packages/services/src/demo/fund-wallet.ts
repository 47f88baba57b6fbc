import type { PrismaClient } from '@gridbot/db';
import {
  ensureAccount,
  ensureUserAccounts,
  SYSTEM_ACCOUNTS,
  toMicro,
  transfer,
  userAccountCode,
} from '@gridbot/ledger';

/**
 * Puts money in a user's wallet without a chain: a deposit of `deposit` USDT booked from chain
 * clearing (memo `funded`), of which `fee` moves to the fee balance (`deposit_balance`). For the
 * embedded demo's user and for tests; real deposits come from the watcher. Idempotent per `key`.
 */
export const fundWallet = async (
  prisma: PrismaClient,
  input: { userId: number; deposit: string; fee: string; key: string },
): Promise<void> => {
  await ensureAccount(prisma, SYSTEM_ACCOUNTS.chainClearing);
  await ensureUserAccounts(prisma, input.userId);
  const main = userAccountCode(input.userId, 'main');
  await transfer(prisma, {
    idempotencyKey: `${input.key}:deposit`,
    type: 'deposit',
    memo: { funded: true },
    legs: [
      { account: SYSTEM_ACCOUNTS.chainClearing, amount: -toMicro(input.deposit) },
      { account: main, amount: toMicro(input.deposit) },
    ],
  });
  await transfer(prisma, {
    idempotencyKey: `${input.key}:fee`,
    type: 'deposit_balance',
    memo: { funded: true },
    legs: [
      { account: main, amount: -toMicro(input.fee) },
      { account: userAccountCode(input.userId, 'fee'), amount: toMicro(input.fee) },
    ],
  });
};
