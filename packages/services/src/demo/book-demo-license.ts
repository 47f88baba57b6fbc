import type { PrismaClient } from '@gridbot/db';
import { ensureAccount, SYSTEM_ACCOUNTS, toMicro, transfer, userAccountCode } from '@gridbot/ledger';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { grantLicense } from '../license/user-license';

/**
 * A demo partner buys a licence from their main balance: one `license_purchase` transfer of the
 * level's yearly price to the house (memo `{ level, demo }`), then the level is granted for its
 * validity. For the embedded demo's team only — real purchases, upgrades and renewals (with their
 * referral bonuses) belong to the licence service (docs/licences.md). Idempotent per user and level.
 */
export const bookDemoLicensePurchase = async (
  ctx: ServiceContext,
  input: { userId: number; level: string },
): Promise<void> => {
  const level = await ctx.prisma.licenseLevel.findUnique({ where: { code: input.level } });
  if (!level) throw new AppError('LICENSE_LEVEL_UNKNOWN');
  await ensureAccount(ctx.prisma, SYSTEM_ACCOUNTS.house);
  await transfer(ctx.prisma as PrismaClient, {
    idempotencyKey: `demo:license:${input.userId}:${level.code}`,
    type: 'license_purchase',
    memo: { level: level.code, demo: true },
    legs: [
      { account: userAccountCode(input.userId, 'main'), amount: -toMicro(level.yearlyPrice.toFixed()) },
      { account: SYSTEM_ACCOUNTS.house, amount: toMicro(level.yearlyPrice.toFixed()) },
    ],
  });
  // Also after a crash between the two steps: the paid level is granted once it is not yet held.
  const user = await ctx.prisma.user.findUniqueOrThrow({ where: { id: input.userId } });
  if (user.licenseLevel !== level.code) await grantLicense(ctx, { userId: input.userId, level: level.code });
};
