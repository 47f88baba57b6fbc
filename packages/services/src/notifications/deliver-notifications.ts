import type { Language } from '@gridbot/contracts';
import type { Prisma } from '@gridbot/db';
import { getUserLanguage } from '../config/user-config';
import type { DataContext } from '../context/service-context';
import {
  hasFreezeButton,
  isNotificationKind,
  type NotificationKind,
  notificationKinds,
} from './notification-kinds';
import { getNotificationSettings } from './notification-settings';
import { notificationText } from './notification-texts';

/** One message for the transport to send (the bot: Telegram's sendMessage). */
export type OutgoingNotification = {
  id: bigint;
  chatId: bigint;
  language: Language;
  kind: NotificationKind;
  text: string;
  /**
   * A security notice: the transport adds the one-tap "freeze withdrawals" button naming the
   * account by `uid` (docs/wallet.md#freeze).
   */
  freeze?: { uid: number };
};

/**
 * What the transport made of a send: `blocked` — the user blocked the bot (403); `refused` — Telegram
 * will never take this message (400); `retry` — try again later (429 with `retryAfterS`, 5xx,
 * network).
 */
export type SendOutcome =
  | { outcome: 'sent' }
  | { outcome: 'blocked'; error: string }
  | { outcome: 'refused'; error: string }
  | { outcome: 'retry'; error: string; retryAfterS?: number };

export type DeliverOptions = {
  send: (message: OutgoingNotification) => Promise<SendOutcome>;
  /** Rows claimed per pass (default 20). */
  batch?: number;
  /** How long a claim holds a row (default 120 s): longer than one send may take. */
  claimMs?: number;
  /** Attempts before a row is given up as failed (default 10). */
  maxAttempts?: number;
  /** Rows older than this are not sent any more (default 3 days): old news is noise. */
  maxAgeMs?: number;
};

export type DeliverResult = {
  claimed: number;
  sent: number;
  muted: number;
  blocked: number;
  failed: number;
  expired: number;
  retried: number;
  /** Telegram asked to slow down: wait this long before the next pass. */
  pauseMs: number;
};

type ClaimedRow = {
  id: bigint;
  user_id: number;
  kind: string;
  data: unknown;
  created_at: Date;
  attempts: number;
};

/** Exponential backoff for other errors: 5 s, 10 s, 20 s … capped at an hour. */
export const retryDelayMs = (attempts: number): number =>
  Math.min(5000 * 2 ** Math.max(attempts - 1, 0), 3_600_000);

/**
 * Claims due rows of the `notifications` outbox (a conditional update over FOR UPDATE SKIP LOCKED,
 * so two bot processes never hold the same row), then renders and sends each in the user's
 * language and records the outcome (docs/notifications.md#delivery).
 */
export const deliverNotifications = async (
  ctx: DataContext,
  options: DeliverOptions,
): Promise<DeliverResult> => {
  const now = ctx.clock.now();
  const claimed = await claimDue(ctx, now, options.batch ?? 20, options.claimMs ?? 120_000);
  const result: DeliverResult = {
    claimed: claimed.length,
    sent: 0,
    muted: 0,
    blocked: 0,
    failed: 0,
    expired: 0,
    retried: 0,
    pauseMs: 0,
  };
  for (const [index, row] of claimed.entries()) {
    const outcome = await deliverOne(ctx, row, now, options);
    result[outcome.count] += 1;
    if (outcome.pauseMs) {
      // A flood wait is Telegram's word for the whole bot: hand the rest back untouched.
      result.pauseMs = outcome.pauseMs;
      await release(ctx, claimed.slice(index + 1));
      break;
    }
  }
  return result;
};

const claimDue = (ctx: DataContext, now: Date, batch: number, claimMs: number) =>
  ctx.prisma.$queryRaw<ClaimedRow[]>`
    UPDATE notifications n
       SET claimed_until = ${new Date(now.getTime() + claimMs)}, attempts = n.attempts + 1
      FROM (SELECT id FROM notifications
             WHERE status = 'pending' AND next_attempt_at <= ${now}
               AND (claimed_until IS NULL OR claimed_until <= ${now})
             ORDER BY next_attempt_at, id
             LIMIT ${batch}
             FOR UPDATE SKIP LOCKED) due
     WHERE n.id = due.id
 RETURNING n.id, n.user_id, n.kind, n.data, n.created_at, n.attempts`;

const release = async (ctx: DataContext, rows: ClaimedRow[]) => {
  if (rows.length === 0) return;
  await ctx.prisma.notification.updateMany({
    where: { id: { in: rows.map((r) => r.id) }, status: 'pending' },
    data: { claimedUntil: null, attempts: { decrement: 1 } },
  });
};

type Count = 'sent' | 'muted' | 'blocked' | 'failed' | 'expired' | 'retried';

const settle = async (
  ctx: DataContext,
  row: ClaimedRow,
  status: 'sent' | 'muted' | 'blocked' | 'failed' | 'expired',
  lastError?: string,
) => {
  const data: Prisma.NotificationUpdateManyMutationInput = { status, claimedUntil: null };
  if (status === 'sent') data.sentAt = ctx.clock.now();
  if (lastError !== undefined) data.lastError = lastError.slice(0, 500);
  await ctx.prisma.notification.updateMany({ where: { id: row.id, status: 'pending' }, data });
};

const deliverOne = async (
  ctx: DataContext,
  row: ClaimedRow,
  now: Date,
  options: DeliverOptions,
): Promise<{ count: Count; pauseMs?: number }> => {
  const user = await ctx.prisma.user.findUnique({
    where: { id: row.user_id },
    select: { uid: true, telegramId: true, botBlockedAt: true },
  });
  if (!user || user.botBlockedAt) {
    await settle(ctx, row, 'blocked');
    return { count: 'blocked' };
  }
  if (now.getTime() - row.created_at.getTime() > (options.maxAgeMs ?? 3 * 86_400_000)) {
    await settle(ctx, row, 'expired');
    return { count: 'expired' };
  }
  if (!isNotificationKind(row.kind)) {
    await settle(ctx, row, 'failed', `no text for kind ${row.kind}`);
    return { count: 'failed' };
  }
  const spec = notificationKinds[row.kind];
  const parsed = spec.data.safeParse(row.data);
  if (!parsed.success) {
    await settle(ctx, row, 'failed', `bad data for ${row.kind}: ${parsed.error.message}`);
    return { count: 'failed' };
  }
  const settings = await getNotificationSettings(ctx, { userId: row.user_id });
  // Security notices (setting null) go out whatever the switches say.
  if (spec.setting !== null && (!settings.enabled || !settings[spec.setting])) {
    await settle(ctx, row, 'muted');
    return { count: 'muted' };
  }
  const language = await getUserLanguage(ctx, { userId: row.user_id });
  const text = notificationText(language, row.kind, parsed.data as never);
  const sent = await options.send({
    id: row.id,
    chatId: user.telegramId,
    language,
    kind: row.kind,
    text,
    ...(hasFreezeButton(row.kind) ? { freeze: { uid: user.uid } } : {}),
  });
  return recordOutcome(ctx, row, sent, options.maxAttempts ?? 10);
};

const recordOutcome = async (
  ctx: DataContext,
  row: ClaimedRow,
  sent: SendOutcome,
  maxAttempts: number,
): Promise<{ count: Count; pauseMs?: number }> => {
  switch (sent.outcome) {
    case 'sent':
      await settle(ctx, row, 'sent');
      return { count: 'sent' };
    case 'blocked':
      // Marked on the user: nothing more is sent until they write to the bot again.
      await ctx.prisma.user.updateMany({
        where: { id: row.user_id, botBlockedAt: null },
        data: { botBlockedAt: ctx.clock.now() },
      });
      await settle(ctx, row, 'blocked', sent.error);
      return { count: 'blocked' };
    case 'refused':
      await settle(ctx, row, 'failed', sent.error);
      return { count: 'failed' };
    case 'retry': {
      if (row.attempts >= maxAttempts && sent.retryAfterS === undefined) {
        await settle(ctx, row, 'failed', sent.error);
        return { count: 'failed' };
      }
      const delayMs = sent.retryAfterS !== undefined ? sent.retryAfterS * 1000 : retryDelayMs(row.attempts);
      await ctx.prisma.notification.updateMany({
        where: { id: row.id, status: 'pending' },
        data: {
          claimedUntil: null,
          nextAttemptAt: new Date(ctx.clock.now().getTime() + delayMs),
          lastError: sent.error.slice(0, 500),
          // A flood wait is not the message's fault: it does not use up an attempt.
          ...(sent.retryAfterS !== undefined ? { attempts: { decrement: 1 } } : {}),
        },
      });
      return sent.retryAfterS !== undefined ? { count: 'retried', pauseMs: delayMs } : { count: 'retried' };
    }
  }
};

/** The user wrote to the bot: they have unblocked it, so notifications flow again. */
export const markBotReachable = async (ctx: DataContext, input: { telegramId: bigint }) => {
  await ctx.prisma.user.updateMany({
    where: { telegramId: input.telegramId, botBlockedAt: { not: null } },
    data: { botBlockedAt: null },
  });
};
