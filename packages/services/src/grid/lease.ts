import type { PrismaClient } from '@gridbot/db';

/**
 * Single-flight per coin bot across every worker: a lease row-lock in the database (works the same
 * on PostgreSQL and PGlite). A crashed holder's lease simply expires.
 */
export const acquireLease = async (prisma: PrismaClient, coinBotId: number, owner: string, ms: number) => {
  const until = new Date(Date.now() + ms);
  const taken = await prisma.coinBot.updateMany({
    where: {
      id: coinBotId,
      OR: [{ lockUntil: null }, { lockUntil: { lt: new Date() } }, { lockOwner: owner }],
    },
    data: { lockOwner: owner, lockUntil: until },
  });
  return taken.count === 1;
};

export const releaseLease = async (
  prisma: PrismaClient,
  coinBotId: number,
  owner: string,
  reconciled: boolean,
) => {
  await prisma.coinBot.updateMany({
    where: { id: coinBotId, lockOwner: owner },
    data: { lockOwner: null, lockUntil: null, ...(reconciled ? { reconciledAt: new Date() } : {}) },
  });
};
