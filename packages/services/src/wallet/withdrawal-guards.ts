import type { Env } from '@gridbot/config';
import type { Prisma, PrismaClient, WalletFreeze } from '@gridbot/db';
import { toMicro } from '@gridbot/ledger';
import { AppError } from '../errors';

type Db = PrismaClient | Prisma.TransactionClient;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The user's withdrawal lock: every request, address change, freeze and operator approval of one
 * user takes it first, in its own transaction, so they happen one after the other
 * (docs/wallet.md#allowance). `FOR NO KEY UPDATE`: inserts elsewhere that reference the user (a
 * notification, an order) only take a key-share lock and are not held up.
 */
export const lockUserWithdrawals = async (tx: Prisma.TransactionClient, userId: number): Promise<void> => {
  await tx.$queryRaw`SELECT id FROM users WHERE id = ${userId} FOR NO KEY UPDATE`;
};

/** How long a new address stays locked, and how long a freeze stands before its owner may lift it. */
export const addressLockMs = (env: Env): number => Math.round(env.WITHDRAW_ADDRESS_LOCK_HOURS * HOUR_MS);

export const usableFromOf = (env: Env, setAt: Date): Date => new Date(setAt.getTime() + addressLockMs(env));

/** The freeze in force, if any (docs/wallet.md#freeze). */
export const freezeInForce = (db: Db, userId: number): Promise<WalletFreeze | null> =>
  db.walletFreeze.findFirst({ where: { userId, liftedAt: null } });

/** When the user may lift this freeze themselves. */
export const liftableFromOf = (env: Env, freeze: Pick<WalletFreeze, 'frozenAt'>): Date =>
  usableFromOf(env, freeze.frozenAt);

/** WITHDRAWALS_FROZEN (naming when the user may lift it) while a freeze is in force. */
export const assertNotFrozen = async (db: Db, env: Env, userId: number): Promise<void> => {
  const freeze = await freezeInForce(db, userId);
  if (freeze) throw new AppError('WITHDRAWALS_FROZEN', undefined, liftableFromOf(env, freeze));
};

/**
 * What counts against the rolling 24 h auto-approve allowance (docs/wallet.md#allowance): the
 * user's withdrawals requested in the last 24 hours that are still on their way (pending, approved,
 * broadcast) or were sent after an automatic approval. Rejected and failed ones were refunded and
 * count for nothing; one an operator approved was looked at by a person.
 */
export const allowanceUsed = async (db: Db, userId: number, now: Date): Promise<bigint> => {
  const since = new Date(now.getTime() - DAY_MS);
  const [row] = await db.$queryRaw<Array<{ used: bigint | null }>>`
    SELECT sum(amount)::bigint AS used FROM withdrawals
     WHERE user_id = ${userId} AND created_at > ${since}
       AND (status IN ('pending', 'approved', 'broadcast') OR (status = 'confirmed' AND decided_by = 'auto'))`;
  return BigInt(row?.used ?? 0);
};

/** The allowance in micro-USDT: the limit, what the last 24 h used, and what is left (never below 0). */
export const allowanceOf = async (db: Db, env: Env, userId: number, now: Date) => {
  const limit = toMicro(env.WITHDRAW_AUTO_APPROVE_USDT);
  const used = await allowanceUsed(db, userId, now);
  return { limit, used, left: used >= limit ? 0n : limit - used };
};

/** When an approved withdrawal may be signed: the approval plus the release delay (docs/wallet.md#release). */
export const releaseAtOf = (env: Env, approvedAt: Date): Date =>
  new Date(approvedAt.getTime() + env.WITHDRAW_RELEASE_DELAY_S * 1000);
