import { z } from 'zod';

/**
 * What the Telegram bot sends the user. `enabled` is the master switch and the same stored flag as
 * the `notifications` config value (on/off).
 */
export const ZNotificationSettings = z.object({
  enabled: z.boolean(),
  fills: z.boolean().describe('every buy and take profit'),
  dailyReport: z.boolean().describe('yesterday PnL after 00:00 UTC (opt-in)'),
  tradingAlerts: z.boolean().describe('bot errors, coin dried, fee balance empty, API key problems'),
  wallet: z.boolean().describe('deposits credited, withdrawals confirmed or rejected, transfers in'),
  bonuses: z.boolean().describe('referral, matching and network expansion bonus credited'),
  license: z.boolean().describe('expiry reminders and renewal window'),
});
export type NotificationSettings = z.output<typeof ZNotificationSettings>;

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  enabled: true,
  fills: false,
  dailyReport: false,
  tradingAlerts: true,
  wallet: true,
  bonuses: true,
  license: true,
};
