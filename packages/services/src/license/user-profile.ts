import type { License } from '@gridbot/contracts';
import { quoteUpgrade } from '@gridbot/domain';
import { fromMicro } from '@gridbot/ledger';
import { getUserLanguage } from '../config/user-config';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { toApiKeyView } from '../exchange-keys/api-key-view';
import { getNotificationSettings } from '../notifications/notification-settings';
import { getLicenseCheck, licenseLevelRow, toLicense } from './user-license';

/**
 * The profile screen (`POST /profile/`, docs/licences.md#expiry): identity, registration date,
 * sponsor, UID, the licence with its limits, what each level of the ladder would cost now (an
 * upgrade from an unexpired paid licence costs the difference), trading pairs used of the
 * licence's coins, the saved API keys (masked) and the notification switches.
 */
export const getUserProfile = async (ctx: ServiceContext, input: { userId: number }) => {
  const now = ctx.clock.now();
  const [user, check, levels, accounts, language, notifications] = await Promise.all([
    ctx.prisma.user.findUnique({
      where: { id: input.userId },
      include: { sponsor: { select: { uid: true, username: true, firstName: true } } },
    }),
    getLicenseCheck(ctx, { userId: input.userId }),
    ctx.prisma.licenseLevel.findMany({ orderBy: { rank: 'asc' } }),
    ctx.prisma.exchangeAccount.findMany({ where: { userId: input.userId }, orderBy: { id: 'asc' } }),
    getUserLanguage(ctx, input),
    getNotificationSettings(ctx, input),
  ]);
  if (!user) throw new AppError('NO_USER');
  const current = { level: check.level, status: check.status };
  const license: License = toLicense(check.status);
  return {
    uid: user.uid,
    telegramId: user.telegramId.toString(),
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    language,
    registeredAt: user.createdAt.toISOString(),
    sponsor: user.sponsor
      ? { uid: user.sponsor.uid, username: user.sponsor.username || null, firstName: user.sponsor.firstName }
      : null,
    license,
    licenseOffers: levels.map((row) => {
      const level = licenseLevelRow(row);
      const quote = quoteUpgrade(current, level, now);
      return {
        level: level.code,
        rank: level.rank,
        yearlyPrice: level.yearlyPrice,
        priceToPay: quote.ok ? fromMicro(quote.quote.price) : level.yearlyPrice,
        balanceLimit: level.balanceLimit,
        coins: level.coins,
        matchingGenerations: level.matchingGenerations,
        activeUntil: (quote.ok ? quote.quote.activeUntil : check.status.activeUntil).toISOString(),
        current: level.code === check.level.code,
        available: quote.ok,
      };
    }),
    tradingPairs: { used: check.usage.coins, limit: check.level.coins },
    apiKey: accounts[0] ? toApiKeyView(accounts[0]) : null,
    apiKeys: accounts.map(toApiKeyView),
    notifications,
  };
};
