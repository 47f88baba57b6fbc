import { loadEnv } from '@gridbot/config';
import type { PrismaClient } from '@gridbot/db';
import { createTestDb, type TestDb } from '@gridbot/db/testing';
import {
  checkInvariants,
  ensureAccount,
  ensureUserAccounts,
  SYSTEM_ACCOUNTS,
  toMicro,
  userAccountCode,
} from '@gridbot/ledger';
import { type SandboxTronHandle, startSandboxTron } from '@gridbot/sandbox';
import {
  type ChainContext,
  createTronNodeClient,
  demoHotWalletKey,
  demoXpub,
  deriveDepositAddress,
  fundWallet,
  type HotWallet,
  holdWithdrawal,
  queueRequestNotice,
  requestNoticeKey,
  systemClock,
  tronAddressOfPrivateKey,
} from '@gridbot/services';
import { silentLogger } from '@gridbot/services/testing';
import { expect } from 'vitest';

export type ChainHarness = Awaited<ReturnType<typeof createChainHarness>>;

/**
 * A real database and the sandbox TRON node over HTTP (no block timer: tests produce blocks), the
 * hot wallet funded in the genesis block, and helpers to make users with deposit addresses and
 * approved withdrawals the way the API does.
 */
export const createChainHarness = async (options: { hotUsdt?: string; hotTrx?: string } = {}) => {
  const db: TestDb = await createTestDb();
  const prisma: PrismaClient = db.prisma;
  const hot: HotWallet = {
    privateKey: demoHotWalletKey(),
    address: tronAddressOfPrivateKey(demoHotWalletKey()),
  };
  const sandbox: SandboxTronHandle = await startSandboxTron({
    blockIntervalMs: 0,
    genesis: [{ address: hot.address, usdt: options.hotUsdt ?? '100000', trx: options.hotTrx ?? '10000' }],
  });
  const env = loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', TRON_NODE_URL: sandbox.url });
  const ctx: ChainContext = { prisma, env, log: silentLogger, clock: systemClock };
  const node = createTronNodeClient({ url: sandbox.url, usdtContract: env.USDT_CONTRACT });
  await ensureAccount(prisma, SYSTEM_ACCOUNTS.chainClearing);
  await ensureAccount(prisma, SYSTEM_ACCOUNTS.withdrawalsHeld);
  await ensureAccount(prisma, SYSTEM_ACCOUNTS.withdrawalFees);
  let users = 0;

  /** A user with a deposit address (index = their number), as create_wallet makes it. */
  const createUser = async () => {
    users += 1;
    const n = users;
    const user = await prisma.user.create({
      data: {
        telegramId: BigInt(1000 + n),
        username: `user${n}`,
        usernameKey: `user${n}`,
        firstName: `User ${n}`,
        referralCode: `ref${n}`,
      },
    });
    const wallet = await prisma.wallet.create({
      data: { userId: user.id, derivationIndex: n, depositAddress: deriveDepositAddress(demoXpub(), n) },
    });
    await ensureUserAccounts(prisma, user.id);
    return { id: user.id, address: wallet.depositAddress };
  };

  const mainBalance = async (userId: number) =>
    (await prisma.ledgerAccount.findUniqueOrThrow({ where: { code: userAccountCode(userId, 'main') } }))
      .balance;

  /**
   * An approved withdrawal: held from main and inserted in one transaction with its owner's
   * `withdrawal_requested` notice (what the API does). By default already released and its notice
   * sent by the bot, so the watcher may sign it at once; `released: false` leaves the notice
   * pending and `releaseAt` as given (docs/wallet.md#release).
   */
  const approvedWithdrawal = async (input: {
    userId: number;
    amount: string;
    fee?: string;
    to: string;
    releaseAt?: Date;
    notice?: 'pending' | 'sent' | 'blocked' | 'failed';
    decidedBy?: string;
  }) => {
    const requestKey = `w${Math.random().toString(36).slice(2)}`;
    const amount = toMicro(input.amount);
    const now = new Date();
    return prisma.$transaction(async (tx) => {
      const hold = await holdWithdrawal(tx, { userId: input.userId, kind: 'withdraw', amount, requestKey });
      const w = await tx.withdrawal.create({
        data: {
          userId: input.userId,
          kind: 'withdraw',
          toAddress: input.to,
          amount,
          networkFee: toMicro(input.fee ?? '1'),
          status: 'approved',
          requestKey,
          holdTransferId: hold.id,
          decidedBy: input.decidedBy ?? 'auto',
          approvedAt: now,
          releaseAt: input.releaseAt ?? now,
          createdAt: now,
        },
      });
      await queueRequestNotice(tx, w);
      const notice = input.notice ?? 'sent';
      if (notice !== 'pending') {
        await tx.notification.update({
          where: { dedupeKey: requestNoticeKey(w.id) },
          data: { status: notice, ...(notice === 'sent' ? { sentAt: now } : {}) },
        });
      }
      return w;
    });
  };

  /** Puts money on a user's main balance without the chain (for withdrawal tests). */
  const fund = (userId: number, usdt: string) =>
    fundWallet(prisma, { userId, deposit: usdt, fee: '0.000001', key: `fund:${userId}:${usdt}` });

  const expectBooksBalanced = async () => {
    const report = await checkInvariants(prisma);
    expect(report.mismatches).toEqual([]);
    expect(report.ok).toBe(true);
  };

  const deposits = (userId: number) =>
    prisma.chainDeposit.findMany({ where: { userId }, orderBy: { id: 'asc' } });

  return {
    db,
    prisma,
    ctx,
    env,
    node,
    sandbox,
    tron: sandbox.tron,
    hot,
    createUser,
    mainBalance,
    approvedWithdrawal,
    fund,
    deposits,
    expectBooksBalanced,
    /** Blocks until the newest block is solidified (TRON's 19 + 1). */
    solidify: () => sandbox.tron.mine(sandbox.tron.chain.solidityLag + 1),
    close: async () => {
      await sandbox.close();
      await db.close();
    },
  };
};
