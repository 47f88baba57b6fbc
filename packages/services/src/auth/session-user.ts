import type { ServiceContext } from '../context/service-context';

/**
 * Whether the user a session names still exists. Tokens are verified without a database read, so a
 * correctly signed token can name a user this database does not have (a restored backup, another
 * installation sharing JWT_SECRET); the API asks only when a request failed unexpectedly, to answer
 * 401 instead of 500 (docs/errors.md#package-errors).
 */
export const sessionUserExists = async (
  ctx: Pick<ServiceContext, 'prisma'>,
  input: { userId: number },
): Promise<boolean> => (await ctx.prisma.user.count({ where: { id: input.userId } })) > 0;
