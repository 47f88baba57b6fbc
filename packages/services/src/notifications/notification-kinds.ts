import type { NotificationSettings } from '@gridbot/contracts';
import { z } from 'zod';

/** Micro-USDT as the producers write it (a bigint's decimal string). */
const ZMicro = z.string().regex(/^-?\d+$/);
/** USDT as a decimal string. */
const ZUsdt = z.string().regex(/^-?\d+(\.\d{1,18})?$/);

/** An instant as the producers write it (ISO 8601). */
const ZInstant = z.string().min(10);

/**
 * Every kind of row in the `notifications` outbox: the shape of its `data` (as its producer writes
 * it) and the switch of `/profile/notificate` that governs it (docs/notifications.md#kinds).
 * `setting: null` is a security notice: sent whatever the switches say, with the one-tap
 * "freeze withdrawals" button when `freezeButton` is set (docs/wallet.md#freeze).
 * A row whose data does not parse is not sent (status failed, the reason kept).
 */
export const notificationKinds = {
  /** A withdrawal was requested: told before anything is broadcast (docs/wallet.md#release). */
  withdrawal_requested: {
    setting: null,
    freezeButton: true,
    data: z.object({
      withdrawalId: z.number().int(),
      amount: ZMicro,
      toAddress: z.string(),
      requestedAt: ZInstant,
    }),
  },
  /** The withdrawal address was set or changed, or a new exchange deposit address was seen. */
  withdraw_address_changed: {
    setting: null,
    freezeButton: true,
    data: z.object({
      address: z.string(),
      /** `address`: the saved withdrawal address; `exchange`: the exchange account's deposit address. */
      target: z.enum(['address', 'exchange']),
      changedAt: ZInstant,
      usableFrom: ZInstant,
    }),
  },
  /** A freeze stopped a withdrawal that had not left yet: refunded to main. */
  withdrawal_stopped: {
    setting: null,
    freezeButton: false,
    data: z.object({ amount: ZMicro, toAddress: z.string() }),
  },
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
  /**
   * Binance ends spot trading of a key without an IP restriction 30 days on, Bybit the key itself
   * 90 days on (`exchange`, absent on notices queued before Bybit: Binance): a few days before.
   */
  api_key_expiring: {
    setting: 'tradingAlerts',
    data: z.object({
      expiresAt: ZInstant,
      daysLeft: z.number().int().min(0),
      ips: z.array(z.string()),
      exchange: z.enum(['binance', 'bybit']).optional(),
    }),
  },
  /** …and once it has ended: the coin bots cannot trade until the key is fixed. */
  api_key_expired: {
    setting: 'tradingAlerts',
    data: z.object({
      expiresAt: ZInstant,
      ips: z.array(z.string()),
      exchange: z.enum(['binance', 'bybit']).optional(),
    }),
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
  { setting: Exclude<keyof NotificationSettings, 'enabled'> | null; freezeButton?: boolean; data: z.ZodType }
>;

/** Security notices carry the "freeze withdrawals" button. */
export const hasFreezeButton = (kind: NotificationKind): boolean => {
  const spec = notificationKinds[kind];
  return 'freezeButton' in spec && spec.freezeButton === true;
};

export type NotificationKind = keyof typeof notificationKinds;
export type NotificationData<K extends NotificationKind> = z.output<(typeof notificationKinds)[K]['data']>;

export const isNotificationKind = (kind: string): kind is NotificationKind =>
  Object.hasOwn(notificationKinds, kind);
