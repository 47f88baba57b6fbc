import type { NotificationSettings } from '@gridbot/contracts';
import { z } from 'zod';

/** Micro-USDT as the producers write it (a bigint's decimal string). */
const ZMicro = z.string().regex(/^-?\d+$/);
/** USDT as a decimal string. */
const ZUsdt = z.string().regex(/^-?\d+(\.\d{1,18})?$/);

/**
 * Every kind of row in the `notifications` outbox: the shape of its `data` (as its producer writes
 * it) and the switch of `/profile/notificate` that governs it (docs/notifications.md#kinds).
 * A row whose data does not parse is not sent (status failed, the reason kept).
 */
export const notificationKinds = {
  deposit_credited: {
    setting: 'wallet',
    data: z.object({ amount: ZMicro, txid: z.string() }),
  },
  withdrawal_sent: {
    setting: 'wallet',
    data: z.object({ amount: ZMicro, receives: ZMicro, txid: z.string().nullable() }),
  },
  withdrawal_failed: {
    setting: 'wallet',
    data: z.object({ amount: ZMicro }),
  },
  /** Written by the operator's CLI: amount already in USDT. */
  withdrawal_rejected: {
    setting: 'wallet',
    data: z.object({ amount: ZUsdt, reason: z.string() }),
  },
  fee_balance_empty: {
    setting: 'tradingAlerts',
    data: z.object({ feeBalanceMicro: ZMicro }),
  },
  /** A coin bot's reconcile was refused by the exchange for good: it stands still until fixed. */
  coin_bot_error: {
    setting: 'tradingAlerts',
    data: z.object({ coin: z.string(), code: z.string() }),
  },
  license_expiring: {
    setting: 'license',
    data: z.object({ level: z.string().optional(), daysLeft: z.number().int().min(0) }),
  },
  license_expired: {
    setting: 'license',
    data: z.object({ level: z.string().optional() }).nullish(),
  },
  bonus_credited: {
    setting: 'bonuses',
    data: z.object({
      bonus: z.enum(['referral_bonus', 'matching_bonus', 'network_expansion_bonus']),
      amount: ZMicro,
    }),
  },
  daily_pnl: {
    setting: 'dailyReport',
    data: z.object({
      date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      pnl: ZUsdt,
      closedTrades: z.number().int().min(0),
      coins: z.array(z.object({ coin: z.string(), pnl: ZUsdt })),
    }),
  },
} as const satisfies Record<
  string,
  { setting: Exclude<keyof NotificationSettings, 'enabled'>; data: z.ZodType }
>;

export type NotificationKind = keyof typeof notificationKinds;
export type NotificationData<K extends NotificationKind> = z.output<(typeof notificationKinds)[K]['data']>;

export const isNotificationKind = (kind: string): kind is NotificationKind =>
  Object.hasOwn(notificationKinds, kind);
