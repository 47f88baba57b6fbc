import type { OutgoingNotification, SendOutcome } from '@gridbot/services';
import { type Api, GrammyError, HttpError } from 'grammy';
import { openAppKeyboard } from './mini-app-button';

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
      reply_markup: openAppKeyboard(message.language, miniAppUrl),
    });
    return { outcome: 'sent' };
  } catch (error) {
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
  }
};
