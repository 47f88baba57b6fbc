import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '@gridbot/db';

/**
 * This installation's salt (created once; services read it through `ctx.installationSalt()`, which
 * asks once per process): part of every clientOrderId, so two installations or a
 * restored backup sharing one exchange key never adopt each other's orders.
 */
export const readInstallationSalt = async (prisma: PrismaClient): Promise<string> => {
  const existing = await prisma.installation.findUnique({ where: { id: 1 } });
  if (existing) return existing.salt;
  const row = await prisma.installation.upsert({
    where: { id: 1 },
    create: { id: 1, salt: randomBytes(8).toString('hex') },
    update: {},
  });
  return row.salt;
};

/** The string a coin bot's clientOrderIds are derived from. */
export const coinBotOrderKey = (salt: string, coinBotId: number) => `${salt}:${coinBotId}`;
