import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';

/**
 * Whether the user a session names still exists. Asked by the API's error handler when a request
 * failed unexpectedly, to answer 401 instead of 500 (docs/errors.md#package-errors); every
 * authenticated request is checked up front by `checkSessionUser`.
 */
export const sessionUserExists = async (
  ctx: Pick<ServiceContext, 'prisma'>,
  input: { userId: number },
): Promise<boolean> => (await ctx.prisma.user.count({ where: { id: input.userId } })) > 0;

/**
 * Whether the account still accepts a correctly signed session (docs/security.md#sessions): the
 * user exists, is not blocked, and the session was issued at or after `sessions_valid_from` (set by
 * "sign out on all devices", the operator's `users end-sessions` and a block). One read by primary
 * key on every authenticated request, and no cache: an ended session is refused at once by every
 * API replica. Any refusal is the same UNAUTHORIZED, so a token never tells which one it met.
 */
export const checkSessionUser = async (
  ctx: Pick<ServiceContext, 'prisma'>,
  input: { userId: number; issuedAtMs: number },
): Promise<void> => {
  const user = await ctx.prisma.user.findUnique({
    where: { id: input.userId },
    select: { blockedAt: true, sessionsValidFrom: true },
  });
  if (!user || user.blockedAt !== null) throw new AppError('UNAUTHORIZED');
  if (user.sessionsValidFrom && input.issuedAtMs < user.sessionsValidFrom.getTime()) {
    throw new AppError('UNAUTHORIZED');
  }
};

/**
 * Ends every session of the account, the caller's own included (`POST /auth/logout_all`, the
 * operator's `users end-sessions`): sessions issued before now are refused from the next request
 * on, and so is launch data signed before now, so a copied launch link cannot sign in again; the
 * user reopens the mini app from Telegram.
 */
export const endUserSessions = async (
  ctx: Pick<ServiceContext, 'prisma' | 'clock'>,
  input: { userId: number },
): Promise<{ endedAt: Date }> => {
  const endedAt = ctx.clock.now();
  const updated = await ctx.prisma.user.updateMany({
    where: { id: input.userId },
    data: { sessionsValidFrom: endedAt },
  });
  if (updated.count === 0) throw new AppError('NO_USER');
  return { endedAt };
};
