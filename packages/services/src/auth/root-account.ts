import type { PrismaClient, User } from '@gridbot/db';
import type { ServiceContext } from '../context/service-context';

export type RootAccountInput = { telegramId?: bigint | undefined; username: string; referralCode: string };

/**
 * The root account makes the first referral codes possible (registration needs a sponsor). It is
 * created once; with no ROOT_TELEGRAM_ID it is a system account nobody can sign in to (id 0).
 */
export const ensureRootAccount = async (ctx: ServiceContext, input: RootAccountInput): Promise<User> => {
  const { prisma } = ctx;
  const existing = await prisma.user.findFirst({ where: { isRoot: true } });
  if (existing) return existing;
  const telegramId = input.telegramId ?? 0n;
  try {
    return await createRoot(prisma, input, telegramId);
  } catch (error) {
    // Two replicas starting together on an empty database: the loser reads the winner's root.
    const root = await prisma.user.findFirst({ where: { isRoot: true } });
    if (root) return root;
    throw error;
  }
};

const createRoot = (prisma: PrismaClient, options: RootAccountInput, telegramId: bigint) =>
  prisma.user.upsert({
    where: { telegramId },
    update: { isRoot: true },
    create: {
      telegramId,
      username: options.username,
      usernameKey: options.username.toLowerCase(),
      firstName: 'Root',
      referralCode: options.referralCode,
      isRoot: true,
    },
  });
