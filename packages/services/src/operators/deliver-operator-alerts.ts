import type { DataContext } from '../context/service-context';
import type { SendOutcome } from '../notifications/deliver-notifications';
import { retryDelayMs } from '../notifications/deliver-notifications';
import { isOperatorAlertKind, type OperatorAlertKind, operatorAlertKinds } from './operator-alert-kinds';
import { operatorAlertText } from './operator-alert-texts';

/** One message for the operators' chat. `decide`: the withdrawal its Approve / Reject buttons decide. */
export type OutgoingOperatorAlert = {
  id: bigint;
  chatId: bigint;
  kind: OperatorAlertKind;
  text: string;
  decide?: { withdrawalId: number };
};

/** What the transport made of a send; `messageId` is kept to edit the message once decided. */
export type OperatorSendOutcome = SendOutcome & { messageId?: number };

export type DeliverOperatorAlertsResult = {
  claimed: number;
  sent: number;
  failed: number;
  skipped: number;
  retried: number;
  pauseMs: number;
};

type ClaimedAlert = { id: bigint; kind: string; data: unknown; attempts: number };

/**
 * Delivers the `operator_alerts` outbox to OPERATOR_CHAT_ID (docs/operations.md#operators-chat),
 * like the users' notifications (docs/notifications.md#delivery): rows claimed with a conditional
 * update over FOR UPDATE SKIP LOCKED (two bot processes never hold the same row), Telegram's
 * `retry_after` honoured, other failures retried with backoff, a refusal for good or 10 attempts
 * `failed`. Without an operators' chat every due row is `skipped` (the CLI decides).
 */
export const deliverOperatorAlerts = async (
  ctx: DataContext,
  options: {
    send: (alert: OutgoingOperatorAlert) => Promise<OperatorSendOutcome>;
    batch?: number;
    claimMs?: number;
    maxAttempts?: number;
  },
): Promise<DeliverOperatorAlertsResult> => {
  const now = ctx.clock.now();
  const result: DeliverOperatorAlertsResult = {
    claimed: 0,
    sent: 0,
    failed: 0,
    skipped: 0,
    retried: 0,
    pauseMs: 0,
  };
  const chat = ctx.env.OPERATOR_CHAT_ID;
  if (!chat) {
    const { count } = await ctx.prisma.operatorAlert.updateMany({
      where: { status: 'pending', nextAttemptAt: { lte: now } },
      data: { status: 'skipped', lastError: 'OPERATOR_CHAT_ID is not set' },
    });
    result.skipped = count;
    return result;
  }
  const claimed = await ctx.prisma.$queryRaw<ClaimedAlert[]>`
    UPDATE operator_alerts a
       SET claimed_until = ${new Date(now.getTime() + (options.claimMs ?? 120_000))}, attempts = a.attempts + 1
      FROM (SELECT id FROM operator_alerts
             WHERE status = 'pending' AND next_attempt_at <= ${now}
               AND (claimed_until IS NULL OR claimed_until <= ${now})
             ORDER BY next_attempt_at, id
             LIMIT ${options.batch ?? 20}
             FOR UPDATE SKIP LOCKED) due
     WHERE a.id = due.id
 RETURNING a.id, a.kind, a.data, a.attempts`;
  result.claimed = claimed.length;
  for (const [index, row] of claimed.entries()) {
    const pauseMs = await deliverOne(ctx, row, BigInt(chat), options, result);
    if (pauseMs > 0) {
      result.pauseMs = pauseMs;
      const rest = claimed.slice(index + 1).map((r) => r.id);
      if (rest.length > 0) {
        await ctx.prisma.operatorAlert.updateMany({
          where: { id: { in: rest }, status: 'pending' },
          data: { claimedUntil: null, attempts: { decrement: 1 } },
        });
      }
      break;
    }
  }
  return result;
};

const deliverOne = async (
  ctx: DataContext,
  row: ClaimedAlert,
  chatId: bigint,
  options: { send: (alert: OutgoingOperatorAlert) => Promise<OperatorSendOutcome>; maxAttempts?: number },
  result: DeliverOperatorAlertsResult,
): Promise<number> => {
  const settle = async (
    status: 'sent' | 'failed',
    extra: { lastError?: string; messageId?: number } = {},
  ) => {
    await ctx.prisma.operatorAlert.updateMany({
      where: { id: row.id, status: 'pending' },
      data: {
        status,
        claimedUntil: null,
        ...(status === 'sent' ? { sentAt: ctx.clock.now() } : {}),
        ...(extra.lastError ? { lastError: extra.lastError.slice(0, 500) } : {}),
        ...(extra.messageId !== undefined ? { messageId: BigInt(extra.messageId) } : {}),
      },
    });
    result[status] += 1;
  };
  if (!isOperatorAlertKind(row.kind)) {
    await settle('failed', { lastError: `no text for kind ${row.kind}` });
    return 0;
  }
  const parsed = operatorAlertKinds[row.kind].data.safeParse(row.data);
  if (!parsed.success) {
    await settle('failed', { lastError: `bad data for ${row.kind}: ${parsed.error.message}` });
    return 0;
  }
  const data = parsed.data;
  const outcome = await options.send({
    id: row.id,
    chatId,
    kind: row.kind,
    text: operatorAlertText(row.kind, data),
    ...(row.kind === 'withdrawal_pending' && 'withdrawalId' in data
      ? { decide: { withdrawalId: data.withdrawalId } }
      : {}),
  });
  switch (outcome.outcome) {
    case 'sent':
      await settle('sent', outcome.messageId !== undefined ? { messageId: outcome.messageId } : {});
      return 0;
    case 'blocked':
    case 'refused':
      await settle('failed', { lastError: outcome.error });
      return 0;
    case 'retry': {
      if (row.attempts >= (options.maxAttempts ?? 10) && outcome.retryAfterS === undefined) {
        await settle('failed', { lastError: outcome.error });
        return 0;
      }
      const delayMs =
        outcome.retryAfterS !== undefined ? outcome.retryAfterS * 1000 : retryDelayMs(row.attempts);
      await ctx.prisma.operatorAlert.updateMany({
        where: { id: row.id, status: 'pending' },
        data: {
          claimedUntil: null,
          nextAttemptAt: new Date(ctx.clock.now().getTime() + delayMs),
          lastError: outcome.error.slice(0, 500),
          ...(outcome.retryAfterS !== undefined ? { attempts: { decrement: 1 } } : {}),
        },
      });
      result.retried += 1;
      return outcome.retryAfterS !== undefined ? delayMs : 0;
    }
  }
};

/** The chat message of a withdrawal's alert, to edit it once decided (undefined: never sent). */
export const findWithdrawalAlertMessage = async (
  ctx: DataContext,
  input: { withdrawalId: number },
): Promise<{ messageId: bigint; text: string } | undefined> => {
  const row = await ctx.prisma.operatorAlert.findUnique({
    where: { dedupeKey: `withdrawal_pending:${input.withdrawalId}` },
  });
  if (!row?.messageId || !isOperatorAlertKind(row.kind)) return undefined;
  const parsed = operatorAlertKinds[row.kind].data.safeParse(row.data);
  return parsed.success
    ? { messageId: row.messageId, text: operatorAlertText(row.kind, parsed.data) }
    : undefined;
};
