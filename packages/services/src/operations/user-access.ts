import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';

/** An account as the operator's `users` commands print it. */
export type UserAccess = {
  uid: number;
  username: string;
  blockedAt: Date | null;
  blockedReason: string | null;
  sessionsValidFrom: Date | null;
};

const ACCESS_SELECT = {
  id: true,
  uid: true,
  username: true,
  blockedAt: true,
  blockedReason: true,
  sessionsValidFrom: true,
} as const;

const userByUid = async (ctx: Pick<ServiceContext, 'prisma'>, uid: number) => {
  const user = await ctx.prisma.user.findUnique({ where: { uid }, select: ACCESS_SELECT });
  if (!user) throw new AppError('NO_USER');
  return user;
};

const accessOf = (user: UserAccess): UserAccess => ({
  uid: user.uid,
  username: user.username,
  blockedAt: user.blockedAt,
  blockedReason: user.blockedReason,
  sessionsValidFrom: user.sessionsValidFrom,
});

/**
 * The operator ends every session of an account (docs/operations.md#users): the same as the
 * user's own "sign out on all devices".
 */
export const endSessionsOfUid = async (
  ctx: Pick<ServiceContext, 'prisma' | 'clock' | 'log'>,
  input: { uid: number; operator: string },
): Promise<UserAccess> => {
  const user = await userByUid(ctx, input.uid);
  const updated = await ctx.prisma.user.update({
    where: { id: user.id },
    data: { sessionsValidFrom: ctx.clock.now() },
    select: ACCESS_SELECT,
  });
  ctx.log.info({ userId: user.id, operator: input.operator }, 'sessions ended by the operator');
  return accessOf(updated);
};

/**
 * Blocks an account (docs/operations.md#users): every session ends at once and sign-in is refused
 * (ACCOUNT_BLOCKED) until `unblockUid`. Money and coin bots stay as they are; the account simply
 * cannot act. Blocking again replaces the reason and keeps the first block's time.
 */
export const blockUid = async (
  ctx: Pick<ServiceContext, 'prisma' | 'clock' | 'log'>,
  input: { uid: number; reason: string; operator: string },
): Promise<UserAccess> => {
  const reason = input.reason.trim();
  if (reason === '') throw new AppError('VALIDATION', [{ path: 'reason', message: 'is required' }]);
  const user = await userByUid(ctx, input.uid);
  const now = ctx.clock.now();
  const updated = await ctx.prisma.user.update({
    where: { id: user.id },
    data: { blockedAt: user.blockedAt ?? now, blockedReason: reason, sessionsValidFrom: now },
    select: ACCESS_SELECT,
  });
  ctx.log.info({ userId: user.id, operator: input.operator, reason }, 'user blocked');
  return accessOf(updated);
};

/**
 * Lifts a block: the user signs in again from Telegram. Sessions from before the block stay ended
 * (the block moved `sessions_valid_from`).
 */
export const unblockUid = async (
  ctx: Pick<ServiceContext, 'prisma' | 'log'>,
  input: { uid: number; operator: string },
): Promise<UserAccess> => {
  const user = await userByUid(ctx, input.uid);
  const updated = await ctx.prisma.user.update({
    where: { id: user.id },
    data: { blockedAt: null, blockedReason: null },
    select: ACCESS_SELECT,
  });
  ctx.log.info({ userId: user.id, operator: input.operator }, 'user unblocked');
  return accessOf(updated);
};
