import { isCataloguedError } from '@gridbot/contracts';
import {
  approveWithdrawal,
  type DataContext,
  decisionLine,
  getWithdrawalDecision,
  type OperatorSendOutcome,
  type OutgoingOperatorAlert,
  REJECT_REASONS,
  rejectWithdrawal,
} from '@gridbot/services';
import { type Api, type Context, InlineKeyboard } from 'grammy';
import { sendFailure } from './send-notification';

/**
 * The operators' chat (docs/operations.md#operators-chat): pending withdrawals posted with
 * Approve / Reject buttons. A press calls the same services as the CLI, with `decidedBy` naming
 * the operator (`telegram:<id> @<username>`); only the ids of OPERATOR_TELEGRAM_IDS may decide,
 * and only in OPERATOR_CHAT_ID. Callback data (Bot API "InlineKeyboardButton", 1–64 bytes):
 * `wd:a:<id>` approve, `wd:r:<id>` asks for a reason, `wd:x:<id>:<n>` rejects with preset reason
 * n, `wd:b:<id>` back to Approve / Reject.
 */

export const OPERATOR_CALLBACK = /^wd:([arxb]):(\d{1,10})(?::(\d))?$/;

const decisionKeyboard = (withdrawalId: number) =>
  new InlineKeyboard().text('✅ Approve', `wd:a:${withdrawalId}`).text('❌ Reject', `wd:r:${withdrawalId}`);

const reasonKeyboard = (withdrawalId: number) => {
  const keyboard = new InlineKeyboard();
  REJECT_REASONS.forEach((reason, n) => {
    keyboard.text(`❌ ${reason}`, `wd:x:${withdrawalId}:${n}`).row();
  });
  return keyboard.text('« Back', `wd:b:${withdrawalId}`);
};

/** Sends one operator alert; a pending withdrawal's comes with its decision buttons. */
export const sendOperatorAlert = async (
  api: Api,
  alert: OutgoingOperatorAlert,
): Promise<OperatorSendOutcome> => {
  try {
    const sent = await api.sendMessage(
      Number(alert.chatId),
      alert.text,
      alert.decide ? { reply_markup: decisionKeyboard(alert.decide.withdrawalId) } : {},
    );
    return { outcome: 'sent', messageId: sent.message_id };
  } catch (error) {
    return sendFailure(error);
  }
};

const operatorName = (from: { id: number; username?: string }) =>
  `telegram:${from.id}${from.username ? ` @${from.username}` : ''}`;

/** Who may press: a listed operator, in the operators' chat. */
const mayDecide = (ctx: DataContext, c: Context): boolean => {
  const from = c.callbackQuery?.from;
  const chatId = c.callbackQuery?.message?.chat.id;
  if (!from || !ctx.env.OPERATOR_CHAT_ID || String(chatId) !== ctx.env.OPERATOR_CHAT_ID) return false;
  return ctx.env.OPERATOR_TELEGRAM_IDS.includes(BigInt(from.id));
};

/** The message as decided: its text with the decision under it, and no buttons left. */
const showDecision = async (ctx: DataContext, c: Context, withdrawalId: number) => {
  const decided = await getWithdrawalDecision(ctx, { withdrawalId });
  const original = (c.callbackQuery?.message?.text ?? '').split('\n\n')[0] ?? '';
  if (!decided) return;
  const line = decisionLine({
    status: decided.status,
    decidedBy: decided.decidedBy,
    at: decided.finishedAt ?? decided.approvedAt ?? decided.updatedAt,
    reason: decided.reason,
  });
  await c
    .editMessageText(`${original}\n\n${line}`, { reply_markup: { inline_keyboard: [] } })
    .catch((error: unknown) => {
      ctx.log.warn({ err: error, withdrawalId }, 'operators chat: the message could not be edited');
    });
};

export const handleOperatorCallback = async (ctx: DataContext, c: Context): Promise<void> => {
  const match = OPERATOR_CALLBACK.exec(c.callbackQuery?.data ?? '');
  const from = c.callbackQuery?.from;
  if (!match || !from) return;
  if (!mayDecide(ctx, c)) {
    ctx.log.warn(
      { telegramId: from.id, data: c.callbackQuery?.data },
      'operators chat: a press by someone not allowed',
    );
    await c.answerCallbackQuery({ text: 'Not allowed: you are not an operator.', show_alert: true });
    return;
  }
  const [, action, idText, reasonText] = match;
  const withdrawalId = Number(idText);
  const operator = operatorName(from);
  if (action === 'r' || action === 'b') {
    const decided = await getWithdrawalDecision(ctx, { withdrawalId });
    if (decided?.status !== 'pending') {
      await c.answerCallbackQuery({ text: 'Already decided.' });
      await showDecision(ctx, c, withdrawalId);
      return;
    }
    await c.answerCallbackQuery();
    const keyboard = action === 'r' ? reasonKeyboard(withdrawalId) : decisionKeyboard(withdrawalId);
    await c.editMessageReplyMarkup({ reply_markup: keyboard });
    return;
  }
  try {
    if (action === 'a') {
      await approveWithdrawal(ctx, { withdrawalId, operator });
    } else {
      const reason = REJECT_REASONS[Number(reasonText)];
      if (!reason) return;
      await rejectWithdrawal(ctx, { withdrawalId, operator, reason });
    }
    await c.answerCallbackQuery({ text: action === 'a' ? 'Approved.' : 'Rejected and refunded.' });
  } catch (error) {
    if (!isCataloguedError(error)) throw error;
    const text =
      error.catalogueCode === 'WITHDRAWAL_NOT_PENDING'
        ? 'Already decided.'
        : `Refused: ${error.catalogueCode} — ${error.message}`;
    await c.answerCallbackQuery({ text, show_alert: error.catalogueCode !== 'WITHDRAWAL_NOT_PENDING' });
    if (error.catalogueCode !== 'WITHDRAWAL_NOT_PENDING') return;
  }
  await showDecision(ctx, c, withdrawalId);
};
