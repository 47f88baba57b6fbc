import { botTexts, type OutgoingNotification, type SendOutcome } from '@gridbot/services';
import { type Api, GrammyError, HttpError, InlineKeyboard } from 'grammy';
import { freezeCallbackData } from './freeze-callback';
import { openAppKeyboard } from './mini-app-button';

/**
 * The buttons under a message: the mini app, and first, for a security notice, the one-tap
 * "freeze withdrawals" (a callback button, Bot API "InlineKeyboardButton": `callback_data` of
 * 1–64 bytes comes back in a `callback_query` update when pressed).
 */
const keyboardOf = (message: OutgoingNotification, miniAppUrl: string) => {
  if (!message.freeze) return openAppKeyboard(message.language, miniAppUrl);
  return new InlineKeyboard()
    .text(botTexts[message.language].freezeButton, freezeCallbackData(message.freeze.uid))
    .row()
    .webApp(botTexts[message.language].openApp, miniAppUrl);
};

/**
 * Sends one notification through the Bot API and says what Telegram made of it
 * (docs/notifications.md#delivery): 403 — the user blocked the bot; 429 — wait `retry_after`;
 * other 4xx — never deliverable; 5xx and network failures — try again later.
 */
export const sendNotification = async (
  api: Api,
  miniAppUrl: string,
  message: OutgoingNotification,
): Promise<SendOutcome> => {
  try {
    await api.sendMessage(Number(message.chatId), message.text, {
      reply_markup: keyboardOf(message, miniAppUrl),
    });
    return { outcome: 'sent' };
  } catch (error) {
    return sendFailure(error);
  }
};

/** What a failed Bot API call means for an outbox row (docs/notifications.md#delivery). */
export const sendFailure = (error: unknown): SendOutcome => {
  if (error instanceof GrammyError) {
    const text = `${error.error_code} ${error.description}`;
    if (error.error_code === 403) return { outcome: 'blocked', error: text };
    if (error.error_code === 429)
      return { outcome: 'retry', error: text, retryAfterS: error.parameters.retry_after ?? 5 };
    if (error.error_code >= 500) return { outcome: 'retry', error: text };
    return { outcome: 'refused', error: text };
  }
  if (error instanceof HttpError) return { outcome: 'retry', error: error.message };
  throw error;
};
