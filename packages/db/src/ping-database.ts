import type { PrismaClient } from './generated/prisma/client';

/**
 * One round trip to the database (readiness probes: docs/operations.md#health). Resolves when it
 * answers; rejects with the driver's error when it cannot be reached.
 */
export const pingDatabase = async (prisma: PrismaClient): Promise<void> => {
  await prisma.$queryRawUnsafe('SELECT 1');
};
