import type { PrismaClient, User } from '@gridbot/db';
import { ensureRootAccount } from '../auth/root-account';
import type { ServiceContext } from '../context/service-context';
import { grantLicense } from '../license/user-license';
import { ensureWallet } from '../wallet/create-wallet';
import { fundWallet } from './fund-wallet';
import { seedDemoTeam } from './seed-demo-team';

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

export type DemoCast = { root: User; sponsor: User; user: User; team: User[] };

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
  await seedDemoWithdrawAddress(ctx, user.id);
  const team = await seedDemoTeam(ctx, user);
  return { root, sponsor, user, team };
};

/**
 * The demo user's wallet: a deposit of DEMO_WALLET.deposit USDT (booked like an on-chain deposit,
 * memo `demo`) of which DEMO_WALLET.fee moved to the fee balance, so trading can start (a fee
 * balance above zero is a start condition, docs/fees.md). Fixed idempotency keys: once per database.
 */
export const DEMO_WALLET = { deposit: '250', fee: '50' } as const;

const seedDemoWallet = (prisma: PrismaClient, userId: number) =>
  fundWallet(prisma, { userId, deposit: DEMO_WALLET.deposit, fee: DEMO_WALLET.fee, key: `demo:${userId}` });

/**
 * A withdrawal address for the demo user, saved a day ago so that it is already usable (a new
 * address waits WITHDRAW_ADDRESS_LOCK_HOURS, docs/wallet.md#address-lock): the demo can show a
 * withdrawal going out. Only when none is saved (a changed one is the visitor's).
 */
export const DEMO_WITHDRAW_ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

const seedDemoWithdrawAddress = async (ctx: ServiceContext, userId: number) => {
  // No key to derive deposit addresses from (a test's installation): no wallet to seed.
  if (!ctx.env.DEMO && !ctx.env.WALLET_XPUB) return;
  await ensureWallet(ctx, userId);
  await ctx.prisma.wallet.updateMany({
    where: { userId, withdrawAddress: null },
    data: {
      withdrawAddress: DEMO_WITHDRAW_ADDRESS,
      withdrawAddressUsableFrom: new Date(ctx.clock.now().getTime() - 86_400_000),
    },
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
