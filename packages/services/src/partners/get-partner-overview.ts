import { type getPartnersOverview, NETWORK_EXPANSION_MIN_PARTNERS } from '@gridbot/contracts';
import type { z } from 'zod';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { rewardTotals } from './get-rewards';
import { cached, treeFingerprint } from './partner-cache';
import { resolvePartnerPeriod } from './partner-periods';
import { type TeamFigures, teamFigures } from './partner-tree';
import { miniAppLinkOf } from './referral-link';

type Overview = z.output<typeof getPartnersOverview.response>;

/** The month's team figures of a user, cached by the tree's fingerprint (docs/bonuses.md#caches). */
export const cachedTeamFigures = async (
  ctx: ServiceContext,
  input: { userId: number; month: string; from: Date; until: Date; fingerprint?: string },
): Promise<TeamFigures> => {
  const fingerprint = input.fingerprint ?? (await treeFingerprint(ctx));
  const key = `partners:team:${input.userId}:${input.month}:${fingerprint}`;
  return cached(ctx, key, () => teamFigures(ctx.prisma, input));
};

/**
 * Partners tab: sponsor, referral link, team by line, rewards, this month's measures and the
 * ranking towards the network expansion bonus (docs/bonuses.md#network-expansion-bonus).
 */
export const getPartnerOverview = async (
  ctx: ServiceContext,
  input: { userId: number },
): Promise<Overview> => {
  const user = await ctx.prisma.user.findUnique({
    where: { id: input.userId },
    include: { sponsor: { select: { uid: true, username: true, firstName: true, licenseLevel: true } } },
  });
  if (!user) throw new AppError('NO_USER');
  const period = resolvePartnerPeriod('current_month', ctx.clock.now());
  const [figures, rewards] = await Promise.all([
    cachedTeamFigures(ctx, { userId: user.id, month: period.month, from: period.from, until: period.until }),
    rewardTotals(ctx, { userId: user.id }),
  ]);
  return {
    sponsor: user.sponsor,
    referralCode: user.referralCode,
    referralLink: miniAppLinkOf(ctx.env.BOT_USERNAME, user.referralCode),
    team: figures.team,
    rewards,
    ranking: {
      month: period.month,
      newPro1Partners: figures.newPayingPersonal,
      required: NETWORK_EXPANSION_MIN_PARTNERS,
      qualified: figures.newPayingPersonal >= NETWORK_EXPANSION_MIN_PARTNERS,
    },
    month: period.month,
    measures: figures.measures,
  };
};
