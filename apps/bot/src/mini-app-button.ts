import type { Language } from '@gridbot/contracts';
import { botTexts } from '@gridbot/services';
import { type Api, InlineKeyboard } from 'grammy';

/** The inline button under the bot's messages that opens the mini app (a `web_app` button). */
export const openAppKeyboard = (language: Language, miniAppUrl: string) =>
  new InlineKeyboard().webApp(botTexts[language].openApp, miniAppUrl);

/** The chat's menu button opens the mini app; without `chatId` the default for every chat. */
export const setChatMenu = async (api: Api, language: Language, miniAppUrl: string, chatId?: number) => {
  await api.setChatMenuButton({
    ...(chatId !== undefined ? { chat_id: chatId } : {}),
    menu_button: { type: 'web_app', text: botTexts[language].menuButton, web_app: { url: miniAppUrl } },
  });
};
