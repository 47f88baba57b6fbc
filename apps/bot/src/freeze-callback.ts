import {
  botTexts,
  type DataContext,
  freezeFromTelegram,
  getUserLanguage,
  productLanguageFor,
} from '@gridbot/services';
import type { Context } from 'grammy';

const PREFIX = 'freeze:';

/** The callback data of the "freeze withdrawals" button: the account's UID (docs/wallet.md#freeze). */
export const freezeCallbackData = (uid: number) => `${PREFIX}${uid}`;

export const FREEZE_CALLBACK = /^freeze:(\d{1,10})$/;

/**
 * A press of "🔒 Freeze withdrawals — this wasn't me": freezes the account if the presser is its
 * owner, answers the callback query (Bot API "answerCallbackQuery": the client shows the text and
 * stops its progress indicator), removes the button from the notice ("editMessageReplyMarkup") and
 * confirms in the chat with when the freeze can be lifted. Anyone else is told the button is not
 * theirs and nothing changes.
 */
export const handleFreezeCallback = async (ctx: DataContext, c: Context): Promise<void> => {
  const from = c.callbackQuery?.from;
  const uid = Number(FREEZE_CALLBACK.exec(c.callbackQuery?.data ?? '')?.[1]);
  if (!from || !Number.isSafeInteger(uid)) return;
  const done = await freezeFromTelegram(ctx, { uid, telegramId: BigInt(from.id) });
  if (done.outcome === 'not_owner') {
    const language = productLanguageFor(from.language_code ?? null);
    await c.answerCallbackQuery({ text: botTexts[language].freezeNotYours, show_alert: true });
    return;
  }
  const texts = botTexts[await getUserLanguage(ctx, { userId: done.userId })];
  const text = done.frozen
    ? texts.frozen(done.stopped, done.freeze.liftableFrom, ctx.env.SUPPORT_URL)
    : texts.alreadyFrozen(done.freeze.liftableFrom);
  await c.answerCallbackQuery({ text: text.slice(0, 200) });
  // The notice keeps its text; only the button goes (it has done its work).
  await c.editMessageReplyMarkup({ reply_markup: { inline_keyboard: [] } }).catch((error: unknown) => {
    ctx.log.warn({ err: error }, 'freeze: the notice could not be edited');
  });
  await c.reply(text);
};
