/** @gridbot/bot: the Telegram bot (README.md). */
export { type BotOptions, type RunningBot, startBot } from './start-bot';
