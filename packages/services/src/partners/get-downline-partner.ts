import type { getPartnerProfile } from '@gridbot/contracts';
import type { z } from 'zod';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { licenseStatusOf } from '../license/user-license';
import { cachedTeamFigures } from './get-partner-overview';
import { resolvePartnerPeriod } from './partner-periods';
import { partnerCard } from './partner-rows';
import { lineBelow, teamSizes } from './partner-tree';

type PartnerProfile = z.output<typeof getPartnerProfile.response>;

/**
 * The card of one partner of the caller's downline with that partner's own measures for the
 * current month (docs/bonuses.md#structure). Anyone outside the downline — an upline, a stranger,
 * the caller themself, a UID that does not exist — is PARTNER_NOT_FOUND.
 */
export const getDownlinePartner = async (
  ctx: ServiceContext,
  input: { userId: number; requiredUid: number },
): Promise<PartnerProfile> => {
  const node = await lineBelow(ctx.prisma, { viewerId: input.userId, targetUid: input.requiredUid });
  if (!node) throw new AppError('PARTNER_NOT_FOUND');
  const now = ctx.clock.now();
  const period = resolvePartnerPeriod('current_month', now);
  const [user, sizes, coins, figures] = await Promise.all([
    ctx.prisma.user.findUniqueOrThrow({
      where: { id: node.id },
      include: { license: true, sponsor: { select: { uid: true, username: true, firstName: true } } },
    }),
    teamSizes(ctx.prisma, [node.id]),
    ctx.prisma.coinBot.findMany({ where: { userId: node.id, deletedAt: null }, select: { running: true } }),
    cachedTeamFigures(ctx, { userId: node.id, month: period.month, from: period.from, until: period.until }),
  ]);
  const card = partnerCard(user, node.line, sizes.get(node.id) ?? { directPartners: 0, teamSize: 0 }, now);
  return {
    ...card,
    lastName: user.lastName,
    sponsor: user.sponsor,
    licenseActiveUntil: licenseStatusOf(user, now).activeUntil.toISOString(),
    trading: coins.some((coin) => coin.running),
    coins: coins.length,
    month: period.month,
    measures: figures.measures,
  };
};
