import { DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings } from '@gridbot/contracts';
import type { DataContext } from '../context/service-context';

type Switches = Omit<NotificationSettings, 'enabled'>;

const switchesOf = (row: Switches | null): Switches => {
  const base = row ?? DEFAULT_NOTIFICATION_SETTINGS;
  return {
    fills: base.fills,
    dailyReport: base.dailyReport,
    tradingAlerts: base.tradingAlerts,
    wallet: base.wallet,
    bonuses: base.bonuses,
    license: base.license,
  };
};

/**
 * What the bot may send a user (docs/notifications.md#settings): the master switch is the
 * `notifications` config value (absent: on), the others a row of notification_settings (absent:
 * the defaults; the daily report is opt-in).
 */
export const getNotificationSettings = async (
  ctx: DataContext,
  input: { userId: number },
): Promise<NotificationSettings> => {
  const [master, row] = await Promise.all([
    ctx.prisma.userConfig.findUnique({
      where: { userId_name: { userId: input.userId, name: 'notifications' } },
    }),
    ctx.prisma.notificationSettings.findUnique({ where: { userId: input.userId } }),
  ]);
  return {
    enabled: master ? master.value !== 'off' : DEFAULT_NOTIFICATION_SETTINGS.enabled,
    ...switchesOf(row),
  };
};

/** `/profile/notificate`: changes the switches given (`{}` changes nothing) and returns them all. */
export const updateNotificationSettings = async (
  ctx: DataContext,
  input: { userId: number; changes: Partial<NotificationSettings> },
): Promise<NotificationSettings> => {
  const { userId } = input;
  const { enabled, ...switches } = input.changes;
  const given = Object.fromEntries(Object.entries(switches).filter(([, v]) => v !== undefined));
  await ctx.prisma.$transaction(async (tx) => {
    if (enabled !== undefined) {
      const value = enabled ? 'on' : 'off';
      await tx.userConfig.upsert({
        where: { userId_name: { userId, name: 'notifications' } },
        create: { userId, name: 'notifications', value },
        update: { value },
      });
    }
    if (Object.keys(given).length > 0) {
      await tx.notificationSettings.upsert({
        where: { userId },
        create: { userId, ...switchesOf(null), ...given },
        update: given,
      });
    }
  });
  return getNotificationSettings(ctx, { userId });
};
