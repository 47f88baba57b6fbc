export {
  BotApiError,
  type CallbackAnswer,
  type CallbackPressInput,
  type CallbackQuery,
  SandboxTelegram,
  type SentMessage,
  type TelegramUpdate,
  type UserMessageInput,
} from './sandbox-telegram';
export {
  buildSandboxTelegramApp,
  newSandboxBotToken,
  type SandboxTelegramHandle,
  type SandboxTelegramServerOptions,
  startSandboxTelegram,
} from './start-sandbox-telegram';
