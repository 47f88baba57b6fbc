import { isExchangeError } from '@gridbot/exchange';
import type { ServiceContext } from '../context/service-context';
import { keyAccessColumns } from './check-exchange-keys';
import { getEgressIps } from './egress-ips';

const DAY_MS = 86_400_000;
/** How many days ahead a key's trading end is announced. */
export const KEY_EXPIRY_REMINDER_DAYS = 3;
/** How long after the end it is still announced (a first run does not announce old ends). */
const EXPIRED_NOTICE_WITHIN_DAYS = 7;

type Notice = { userId: number; kind: string; data: object; dedupeKey: string };

/**
 * Queues the notices of API keys whose spot trading Binance ends (docs/security.md#exchange-keys):
 * `api_key_expiring` when the end is at most 3 days away, `api_key_expired` once it has passed.
 * Each key is asked again first — its owner may have restricted it to our IPs (no end) or enabled
 * trading again (a new end) on Binance meanwhile — and what it says is kept on the account. A
 * notice is keyed by account, kind and the end instant, so any number of runs on any number of
 * replicas write it once; a key with a new end gets its own notices.
 */
export const queueKeyExpiryNotices = async (ctx: ServiceContext): Promise<{ queued: number }> => {
  const now = ctx.clock.now().getTime();
  const accounts = await ctx.prisma.exchangeAccount.findMany({
    where: {
      tradingExpiresAt: {
        gt: new Date(now - EXPIRED_NOTICE_WITHIN_DAYS * DAY_MS),
        lte: new Date(now + KEY_EXPIRY_REMINDER_DAYS * DAY_MS),
      },
    },
    select: { id: true, userId: true, exchange: true },
    orderBy: { id: 'asc' },
  });
  if (accounts.length === 0) return { queued: 0 };
  const { ips } = await getEgressIps(ctx);
  const notices: Notice[] = [];
  for (const account of accounts) {
    let expiresAt: number | null;
    try {
      const granted = await (await ctx.exchanges.forAccount(account.id)).checkPermissions();
      const expired = granted.tradingExpiresAt !== null && granted.tradingExpiresAt <= now && !granted.spot;
      await ctx.prisma.exchangeAccount.update({
        where: { id: account.id },
        data: {
          ...keyAccessColumns(granted),
          checkedAt: new Date(now),
          ...(expired ? { checkProblem: 'API_KEY_TRADING_EXPIRED' } : {}),
        },
      });
      expiresAt = granted.tradingExpiresAt;
    } catch (error) {
      // Unanswered, or the key is refused for another reason (its coin bots say so): next run.
      if (!isExchangeError(error)) throw error;
      ctx.log.warn({ exchangeAccountId: account.id, code: error.code }, 'key expiry check skipped');
      continue;
    }
    if (expiresAt === null || expiresAt > now + KEY_EXPIRY_REMINDER_DAYS * DAY_MS) continue;
    const end = new Date(expiresAt).toISOString();
    const kind = expiresAt <= now ? 'api_key_expired' : 'api_key_expiring';
    // Whose rule ended it: Binance's 30 days of spot trading, Bybit's 90 days of an unbound key.
    const venue = account.exchange === 'bybit' ? { exchange: 'bybit' as const } : {};
    notices.push({
      userId: account.userId,
      kind,
      data:
        kind === 'api_key_expired'
          ? { expiresAt: end, ips, ...venue }
          : { expiresAt: end, daysLeft: Math.ceil((expiresAt - now) / DAY_MS), ips, ...venue },
      dedupeKey: `${kind}:${account.id}:${expiresAt}`,
    });
  }
  if (notices.length === 0) return { queued: 0 };
  const { count } = await ctx.prisma.notification.createMany({ data: notices, skipDuplicates: true });
  return { queued: count };
};
