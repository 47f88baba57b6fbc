import type { PrismaClient, User } from '@gridbot/db';
import {
  ensureAccount,
  ensureUserAccounts,
  SYSTEM_ACCOUNTS,
  toMicro,
  transfer,
  userAccountCode,
} from '@gridbot/ledger';
import { ensureRootAccount } from '../auth/root-account';
import type { ServiceContext } from '../context/service-context';
import { grantLicense } from '../license/user-license';

/** The demo user's licence: its three coins commit 910 USDT, beyond FREE's 300 (docs/licences.md). */
export const DEMO_LICENSE = 'PRO1';

/** The demo cast: root → sponsor → demo user (the one the demo launch data signs in). */
export const DEMO_ACCOUNTS = {
  sponsor: {
    telegramId: 700000001n,
    username: 'demo_sponsor',
    firstName: 'Alice',
    lastName: 'Sponsor',
    referralCode: 'alice',
  },
  user: {
    telegramId: 700000002n,
    username: 'demo_trader',
    firstName: 'Demo',
    lastName: 'Trader',
    referralCode: 'demo',
  },
} as const;

export type DemoCast = { root: User; sponsor: User; user: User };

/** Idempotent: running it on every start keeps the cast and never duplicates it. */
export const seedDemo = async (ctx: ServiceContext): Promise<DemoCast> => {
  const root = await ensureRootAccount(ctx, { username: 'root', referralCode: 'root' });
  const sponsor = await upsertAccount(ctx.prisma, DEMO_ACCOUNTS.sponsor, root.id);
  let user = await upsertAccount(ctx.prisma, DEMO_ACCOUNTS.user, sponsor.id);
  if (user.licenseLevel !== DEMO_LICENSE) {
    await grantLicense(ctx, { userId: user.id, level: DEMO_LICENSE });
    user = await ctx.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
  }
  await seedDemoWallet(ctx.prisma, user.id);
  return { root, sponsor, user };
};

/**
 * The demo user's wallet: a deposit of DEMO_WALLET.deposit USDT (booked like an on-chain deposit,
 * memo `demo`) of which DEMO_WALLET.fee moved to the fee balance, so trading can start (a fee
 * balance above zero is a start condition, docs/fees.md). Fixed idempotency keys: once per database.
 */
export const DEMO_WALLET = { deposit: '250', fee: '50' } as const;

const seedDemoWallet = async (prisma: PrismaClient, userId: number): Promise<void> => {
  await ensureAccount(prisma, SYSTEM_ACCOUNTS.chainClearing);
  await ensureUserAccounts(prisma, userId);
  const main = userAccountCode(userId, 'main');
  await transfer(prisma, {
    idempotencyKey: `demo:${userId}:deposit`,
    type: 'deposit',
    memo: { demo: true },
    legs: [
      { account: SYSTEM_ACCOUNTS.chainClearing, amount: -toMicro(DEMO_WALLET.deposit) },
      { account: main, amount: toMicro(DEMO_WALLET.deposit) },
    ],
  });
  await transfer(prisma, {
    idempotencyKey: `demo:${userId}:fee`,
    type: 'deposit_balance',
    memo: { demo: true },
    legs: [
      { account: main, amount: -toMicro(DEMO_WALLET.fee) },
      { account: userAccountCode(userId, 'fee'), amount: toMicro(DEMO_WALLET.fee) },
    ],
  });
};

const upsertAccount = (
  prisma: PrismaClient,
  account: (typeof DEMO_ACCOUNTS)[keyof typeof DEMO_ACCOUNTS],
  sponsorId: number,
) =>
  prisma.user.upsert({
    where: { telegramId: account.telegramId },
    update: {},
    create: {
      telegramId: account.telegramId,
      username: account.username,
      usernameKey: account.username.toLowerCase(),
      firstName: account.firstName,
      lastName: account.lastName,
      referralCode: account.referralCode,
      sponsorId,
      configs: { create: { name: 'localization', value: 'en' } },
    },
  });
