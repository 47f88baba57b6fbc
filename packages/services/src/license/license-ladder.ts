import { type LicenseLevelRow, usdtToMicro } from '@gridbot/domain';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { grantLicense, licenseLevelRow } from './user-license';

/** The ladder in rank order (docs/licences.md#levels). */
export const listLicenseLevels = async (ctx: ServiceContext): Promise<LicenseLevelRow[]> =>
  (await ctx.prisma.licenseLevel.findMany({ orderBy: { rank: 'asc' } })).map(licenseLevelRow);

export type LicenseLevelChange = {
  code: string;
  price?: string | undefined;
  limit?: string | undefined;
  coins?: number | undefined;
  generations?: number | undefined;
  days?: number | undefined;
};

const USDT = /^\d{1,12}(\.\d{1,6})?$/;
const CODE = /^[A-Z][A-Z0-9_]{1,15}$/;

type Issue = { path: string; message: string };

/** What is wrong with a ladder (empty when it is valid). */
export const ladderIssues = (levels: readonly LicenseLevelRow[]): Issue[] => {
  const issues: Issue[] = [];
  levels.forEach((level, index) => {
    const previous = levels[index - 1];
    if (level.rank === 0 && usdtToMicro(level.yearlyPrice) !== 0n) {
      issues.push({ path: 'price', message: `${level.code}: the free level costs nothing` });
    }
    if (previous && usdtToMicro(level.yearlyPrice) <= usdtToMicro(previous.yearlyPrice)) {
      issues.push({ path: 'price', message: `${level.code}: must cost more than ${previous.code}` });
    }
  });
  return issues;
};

const fieldIssues = (change: LicenseLevelChange): Issue[] => {
  const issues: Issue[] = [];
  if (!CODE.test(change.code)) issues.push({ path: 'level', message: 'must look like PRO1' });
  if (change.price !== undefined && !USDT.test(change.price)) {
    issues.push({ path: 'price', message: 'must be USDT with at most 6 decimals' });
  }
  if (change.limit !== undefined && (!USDT.test(change.limit) || usdtToMicro(change.limit) <= 0n)) {
    issues.push({ path: 'limit', message: 'must be a positive USDT amount' });
  }
  const int = (value: number | undefined, path: string, min: number, max: number) => {
    if (value !== undefined && (!Number.isInteger(value) || value < min || value > max)) {
      issues.push({ path, message: `must be a whole number ${min}–${max}` });
    }
  };
  int(change.coins, 'coins', 1, 1000);
  int(change.generations, 'generations', 0, 3);
  int(change.days, 'days', 1, 3660);
  return issues;
};

/**
 * Changes one level of the ladder, or adds one above the highest when every field is given
 * (docs/licences.md#operator-cli). The whole ladder is checked after the change (prices rising
 * strictly with the rank, the free level free) and the change is refused with VALIDATION otherwise.
 * Runs with the ladder locked, so two operators cannot interleave. Returns the level before and after.
 */
export const setLicenseLevel = async (
  ctx: ServiceContext,
  change: LicenseLevelChange,
): Promise<{ before: LicenseLevelRow | null; after: LicenseLevelRow }> => {
  const issues = fieldIssues(change);
  if (issues.length > 0) throw new AppError('VALIDATION', issues);
  return ctx.prisma.$transaction(async (tx) => {
    await tx.$queryRawUnsafe('SELECT code FROM license_levels ORDER BY rank FOR UPDATE');
    const levels = await tx.licenseLevel.findMany({ orderBy: { rank: 'asc' } });
    const existing = levels.find((level) => level.code === change.code) ?? null;
    if (!existing) {
      const missing = (['price', 'limit', 'coins', 'generations', 'days'] as const).filter(
        (name) => change[name] === undefined,
      );
      if (missing.length > 0) {
        throw new AppError(
          'VALIDATION',
          missing.map((name) => ({ path: name, message: `a new level needs --${name}` })),
        );
      }
    }
    const base = existing ? licenseLevelRow(existing) : null;
    const next: LicenseLevelRow = {
      code: change.code,
      rank: base?.rank ?? (levels.at(-1)?.rank ?? -1) + 1,
      yearlyPrice: change.price ?? base?.yearlyPrice ?? '0',
      balanceLimit: change.limit ?? base?.balanceLimit ?? '0',
      coins: change.coins ?? base?.coins ?? 0,
      matchingGenerations: change.generations ?? base?.matchingGenerations ?? 0,
      validDays: change.days ?? base?.validDays ?? 1,
    };
    // The whole ladder as it would be, checked before anything is written.
    const ladder = [...levels.map(licenseLevelRow).filter((level) => level.code !== next.code), next].sort(
      (a, b) => a.rank - b.rank,
    );
    const wrong = ladderIssues(ladder);
    if (wrong.length > 0) throw new AppError('VALIDATION', wrong);
    const data = {
      yearlyPrice: next.yearlyPrice,
      balanceLimit: next.balanceLimit,
      coins: next.coins,
      matchingGenerations: next.matchingGenerations,
      validDays: next.validDays,
    };
    const after = existing
      ? await tx.licenseLevel.update({ where: { code: next.code }, data })
      : await tx.licenseLevel.create({ data: { code: next.code, rank: next.rank, ...data } });
    return { before: base, after: licenseLevelRow(after) };
  });
};

/** Gives the user with this UID a level for its validity, without payment (operators). */
export const grantLicenseByUid = async (
  ctx: ServiceContext,
  input: { uid: number; level: string },
): Promise<{ userId: number; before: string; after: string }> => {
  const user = await ctx.prisma.user.findUnique({ where: { uid: input.uid } });
  if (!user) throw new AppError('NO_USER');
  await grantLicense(ctx, { userId: user.id, level: input.level });
  return { userId: user.id, before: user.licenseLevel, after: input.level };
};
