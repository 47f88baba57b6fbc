import { type ConfigName, type ConfigValue, configValues, type Language } from '@gridbot/contracts';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';

export const getUserConfig = async (
  ctx: Pick<ServiceContext, 'prisma'>,
  input: { userId: number; name: ConfigName },
): Promise<ConfigValue> => {
  const row = await ctx.prisma.userConfig.findUnique({
    where: { userId_name: { userId: input.userId, name: input.name } },
  });
  return { name: input.name, data: row?.value ?? null };
};

/** Values are lower-cased and must be one the name allows (`localization`: en, ru, cn). */
export const setUserConfig = async (
  ctx: ServiceContext,
  input: { userId: number; name: ConfigName; value: string },
): Promise<ConfigValue> => {
  const { userId, name } = input;
  const value = input.value.trim().toLowerCase();
  if (!configValues[name].includes(value)) {
    throw new AppError('CONFIG_VALUE_INVALID', [
      { path: 'data', message: `one of: ${configValues[name].join(', ')}` },
    ]);
  }
  await ctx.prisma.userConfig.upsert({
    where: { userId_name: { userId, name } },
    create: { userId, name, value },
    update: { value },
  });
  return { name, data: value };
};

/** The product language a user chose (stored `localization`), en when never set. */
export const getUserLanguage = async (
  ctx: Pick<ServiceContext, 'prisma'>,
  input: { userId: number },
): Promise<Language> => {
  const { data } = await getUserConfig(ctx, { userId: input.userId, name: 'localization' });
  return data === 'ru' || data === 'cn' ? data : 'en';
};
