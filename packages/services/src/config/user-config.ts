import { type ConfigName, configValues } from '@gridbot/contracts';
import type { PrismaClient } from '@gridbot/db';
import { AppError } from '../errors';

export type ConfigEntry = { name: ConfigName; data: string | null };

export const getUserConfig = async (
  prisma: PrismaClient,
  userId: number,
  name: ConfigName,
): Promise<ConfigEntry> => {
  const row = await prisma.userConfig.findUnique({ where: { userId_name: { userId, name } } });
  return { name, data: row?.value ?? null };
};

/** Values are lower-cased and must be one the name allows (`localization`: en, ru, cn). */
export const setUserConfig = async (
  prisma: PrismaClient,
  userId: number,
  name: ConfigName,
  raw: string,
): Promise<ConfigEntry> => {
  const value = raw.trim().toLowerCase();
  if (!configValues[name].includes(value)) {
    throw new AppError('CONFIG_VALUE_INVALID', [
      { path: 'data', message: `one of: ${configValues[name].join(', ')}` },
    ]);
  }
  await prisma.userConfig.upsert({
    where: { userId_name: { userId, name } },
    create: { userId, name, value },
    update: { value },
  });
  return { name, data: value };
};

export const getUserLanguage = async (prisma: PrismaClient, userId: number): Promise<'en' | 'ru' | 'cn'> => {
  const { data } = await getUserConfig(prisma, userId, 'localization');
  return data === 'ru' || data === 'cn' ? data : 'en';
};
