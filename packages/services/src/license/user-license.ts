import type { License } from '@gridbot/contracts';
import type { LicenseLevel, PrismaClient, User } from '@gridbot/db';
import { committedCapital, type LicenseLevelRow, type LicenseStatus, licenseStatus } from '@gridbot/domain';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';

/** A ladder row with money as decimal strings (what the domain rules take). */
export const licenseLevelRow = (level: LicenseLevel): LicenseLevelRow => ({
  code: level.code,
  rank: level.rank,
  yearlyPrice: level.yearlyPrice.toFixed(),
  balanceLimit: level.balanceLimit.toFixed(),
  coins: level.coins,
  matchingGenerations: level.matchingGenerations,
  validDays: level.validDays,
});

/** Everything a licence check needs: the level, its status now, and what the portfolio uses of it. */
export type LicenseCheck = {
  level: LicenseLevelRow;
  status: LicenseStatus;
  usage: { coins: number; committedCapital: string };
};

type Db = Pick<PrismaClient, 'user' | 'coinBot'>;

/** A user row's licence status at `now` (the row with its `license` level included). */
export const licenseStatusOf = (
  user: Pick<User, 'createdAt' | 'licenseActiveFrom' | 'licenseActiveUntil'> & { license: LicenseLevel },
  now: Date,
): LicenseStatus =>
  licenseStatus(
    licenseLevelRow(user.license),
    {
      registeredAt: user.createdAt,
      activeFrom: user.licenseActiveFrom,
      activeUntil: user.licenseActiveUntil,
    },
    now,
  );

/**
 * The user's licence as of the context clock, with the portfolio's use of it (coin count and
 * committed capital Σ orderSize × maxTrades). `db` may be a transaction client, so a check and the
 * change it guards read the same snapshot.
 */
export const getLicenseCheck = async (
  ctx: ServiceContext,
  input: { userId: number; db?: Db },
): Promise<LicenseCheck> => {
  const db = input.db ?? ctx.prisma;
  const [user, coins] = await Promise.all([
    db.user.findUnique({ where: { id: input.userId }, include: { license: true } }),
    db.coinBot.findMany({
      where: { userId: input.userId, deletedAt: null },
      select: { orderSize: true, maxTrades: true },
    }),
  ]);
  if (!user) throw new AppError('NO_USER');
  const level = licenseLevelRow(user.license);
  const status = licenseStatusOf(user, ctx.clock.now());
  const settings = coins.map((coin) => ({ orderSize: coin.orderSize.toFixed(), maxTrades: coin.maxTrades }));
  return { level, status, usage: { coins: coins.length, committedCapital: committedCapital(settings) } };
};

/** The contract shape of a licence status (dates as ISO strings). */
export const toLicense = (status: LicenseStatus): License => ({
  ...status,
  activeFrom: status.activeFrom.toISOString(),
  activeUntil: status.activeUntil.toISOString(),
  renewal: {
    ...status.renewal,
    availableFrom: status.renewal.availableFrom?.toISOString() ?? null,
    newActiveUntil: status.renewal.newActiveUntil?.toISOString() ?? null,
  },
});

/** The user's licence (profile, panel). */
export const getUserLicense = async (ctx: ServiceContext, input: { userId: number }): Promise<License> =>
  toLicense((await getLicenseCheck(ctx, input)).status);

/**
 * Grants a level for its validity from now without a payment: the embedded demo's user, and
 * operators (docs/licences.md). Purchases go through the ledger (the licences issue).
 */
export const grantLicense = async (
  ctx: ServiceContext,
  input: { userId: number; level: string },
): Promise<void> => {
  const level = await ctx.prisma.licenseLevel.findUnique({ where: { code: input.level } });
  if (!level) throw new AppError('LICENSE_LEVEL_UNKNOWN');
  const now = ctx.clock.now();
  await ctx.prisma.user.update({
    where: { id: input.userId },
    data:
      level.rank === 0
        ? { licenseLevel: level.code, licenseActiveFrom: null, licenseActiveUntil: null }
        : {
            licenseLevel: level.code,
            licenseActiveFrom: now,
            licenseActiveUntil: new Date(now.getTime() + level.validDays * 86_400_000),
          },
  });
};
