import { randomBytes } from 'node:crypto';
import type { PrismaClient, User } from '@gridbot/db';
import {
  checkInvariants,
  ensureAccount,
  ensureUserAccounts,
  SYSTEM_ACCOUNTS,
  toMicro,
  transfer,
  userAccountCode,
} from '@gridbot/ledger';
import { demoXpub } from '@gridbot/services';
import { expect } from 'vitest';

/** A valid TRON address users withdraw to in the wallet tests (an ordinary account, no contract). */
export const WITHDRAW_ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

/** The USDT contract: a valid address that is a contract (refused as a destination). */
export const USDT_CONTRACT_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/**
 * The wallet tests' installation: deposit addresses from the demo xpub, 20 USDT a day approved
 * without an operator, and addresses usable at once (the address lock has tests of its own).
 */
export const walletEnv = () => ({
  WALLET_XPUB: demoXpub(),
  WITHDRAW_AUTO_APPROVE_USDT: '20',
  WITHDRAW_ADDRESS_LOCK_HOURS: '0',
});

/**
 * A credited TRC20 deposit as the watcher books it: the chain_deposits row and its `deposit`
 * transfer (chain clearing → main), linked. `status` pending / not_credited: the row alone.
 */
export const bookDeposit = async (
  prisma: PrismaClient,
  user: User,
  usdt: string,
  status: 'credited' | 'pending' | 'not_credited' = 'credited',
) => {
  const txid = randomBytes(32).toString('hex');
  let ledgerTransferId: bigint | null = null;
  if (status === 'credited') {
    await ensureAccount(prisma, SYSTEM_ACCOUNTS.chainClearing);
    await ensureUserAccounts(prisma, user.id);
    const booked = await transfer(prisma, {
      idempotencyKey: `deposit:${txid}:0`,
      type: 'deposit',
      memo: { txid, logIndex: 0 },
      legs: [
        { account: SYSTEM_ACCOUNTS.chainClearing, amount: -toMicro(usdt) },
        { account: userAccountCode(user.id, 'main'), amount: toMicro(usdt) },
      ],
    });
    ledgerTransferId = booked.id;
  }
  return prisma.chainDeposit.create({
    data: {
      txid,
      logIndex: 0,
      userId: user.id,
      toAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      fromAddress: 'TVjsyZ7fYF3qLF6BQgPmTEZy1xrNNyVAAA',
      amount: toMicro(usdt),
      blockNumber: 1000n,
      blockTime: new Date(),
      status,
      ledgerTransferId,
    },
  });
};

/** Everything money and the wallet rows consist of, to prove that a refused call changed nothing. */
export const moneySnapshot = async (prisma: PrismaClient) => ({
  accounts: await prisma.ledgerAccount.findMany({
    orderBy: { code: 'asc' },
    select: { code: true, balance: true },
  }),
  transfers: await prisma.ledgerTransfer.count(),
  entries: await prisma.ledgerEntry.count(),
  withdrawals: await prisma.withdrawal.findMany({ orderBy: { id: 'asc' } }),
  wallets: await prisma.wallet.findMany({ orderBy: { userId: 'asc' } }),
  notifications: await prisma.notification.count(),
});

/**
 * The ledger's invariants, and the wallet's own: what system:withdrawals_held holds is exactly the
 * sum of the withdrawals still open (pending, approved, broadcast).
 */
export const expectBooksIntact = async (prisma: PrismaClient) => {
  const report = await checkInvariants(prisma);
  expect(report.mismatches).toEqual([]);
  expect(report.ok).toBe(true);
  const held = await prisma.ledgerAccount.findUnique({ where: { code: SYSTEM_ACCOUNTS.withdrawalsHeld } });
  const open = await prisma.withdrawal.aggregate({
    where: { status: { in: ['pending', 'approved', 'broadcast'] } },
    _sum: { amount: true },
  });
  expect(held?.balance ?? 0n).toBe(open._sum.amount ?? 0n);
};

export const balanceOf = async (prisma: PrismaClient, user: User, sub: 'main' | 'fee') =>
  (await prisma.ledgerAccount.findUnique({ where: { code: userAccountCode(user.id, sub) } }))?.balance ?? 0n;
