import type { getReferralLink } from '@gridbot/contracts';
import type { z } from 'zod';
import { getUserLanguage } from '../config/user-config';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';

type ReferralLinks = z.output<typeof getReferralLink.response>;

/** The mini app link that registers under `code` (docs/bonuses.md#registration). */
export const miniAppLinkOf = (botUsername: string, code: string) =>
  `https://t.me/${botUsername}?startapp=ref_${code}`;

const SHARE_TEXT = {
  en: 'Join me on the grid trading bot: it trades for you on your own exchange account.',
  ru: 'Присоединяйся ко мне в сеточном торговом боте: он торгует за тебя на твоём аккаунте биржи.',
  cn: '和我一起使用网格交易机器人：它在你自己的交易所账户上为你交易。',
} as const;

/** The caller's referral links (mini app and bot) and an invitation text in their language. */
export const getReferralLinks = async (
  ctx: ServiceContext,
  input: { userId: number },
): Promise<ReferralLinks> => {
  const user = await ctx.prisma.user.findUnique({
    where: { id: input.userId },
    select: { referralCode: true },
  });
  if (!user) throw new AppError('NO_USER');
  const language = await getUserLanguage(ctx, input);
  const bot = ctx.env.BOT_USERNAME;
  return {
    referralCode: user.referralCode,
    miniAppLink: miniAppLinkOf(bot, user.referralCode),
    botLink: `https://t.me/${bot}?start=ref_${user.referralCode}`,
    shareText: SHARE_TEXT[language],
  };
};
