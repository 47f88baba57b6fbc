import { errorCatalogue, type Language } from '@gridbot/contracts';
import {
  botTexts,
  type DataContext,
  enterTelegramUser,
  getUserLanguage,
  isAppError,
  markBotReachable,
  productLanguageFor,
} from '@gridbot/services';
import type { Context } from 'grammy';
import { openAppKeyboard, setChatMenu } from './mini-app-button';

/**
 * `/start [ref_<code>]` (docs/bonuses.md#registration): registers a new Telegram user through the
 * referral code — the same rules as the mini app's sign-in (username required, sponsor fixed at
 * registration, a known user is never re-sponsored) — and answers with the button that opens the
 * mini app. Refusals are answered in the user's language.
 */
export const handleStart = async (ctx: DataContext, miniAppUrl: string, c: Context): Promise<void> => {
  const from = c.from;
  if (!from || from.is_bot) return;
  const telegramLanguage: Language = productLanguageFor(from.language_code ?? null);
  const payload = typeof c.match === 'string' ? c.match.trim() : '';
  try {
    const { user, registered } = await enterTelegramUser(ctx, {
      telegramUser: {
        id: BigInt(from.id),
        username: from.username ?? null,
        firstName: from.first_name,
        lastName: from.last_name ?? null,
        languageCode: from.language_code ?? null,
      },
      startParam: payload === '' ? null : payload,
      // The message's date: an old /start delivered late never writes older names back.
      signedAt: new Date((c.msg?.date ?? 0) * 1000),
    });
    // Writing to the bot unblocks it: notifications flow again.
    await markBotReachable(ctx, { telegramId: user.telegramId });
    const language = await getUserLanguage(ctx, { userId: user.id });
    const texts = botTexts[language];
    await setChatMenu(c.api, language, miniAppUrl, from.id);
    await c.reply(registered ? texts.welcome : texts.welcomeBack, {
      reply_markup: openAppKeyboard(language, miniAppUrl),
    });
    ctx.log.info({ userId: user.id, registered }, registered ? 'registered through /start' : '/start');
  } catch (error) {
    if (!isAppError(error)) throw error;
    const text =
      error.code === 'NO_USER'
        ? botTexts[telegramLanguage].inviteOnly
        : errorCatalogue[error.code].detail[telegramLanguage];
    await c.reply(text);
  }
};
