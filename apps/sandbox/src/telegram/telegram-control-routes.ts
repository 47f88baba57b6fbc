import type { FastifyInstance } from 'fastify';
import { loopbackOnly } from '../loopback';
import {
  BotApiError,
  type CallbackPressInput,
  type SandboxTelegram,
  type UserMessageInput,
} from './sandbox-telegram';

const chatParams = {
  type: 'object',
  required: ['chatId'],
  properties: { chatId: { type: 'integer' } },
} as const;

/**
 * The Bot API stand-in's control API under /_sandbox/telegram/ (loopback clients only): a user
 * writes to the bot, the messages the bot sent to a chat, a user blocks the bot or is throttled.
 * Documented in apps/sandbox/README.md.
 */
export const telegramControlRoutes = async (
  app: FastifyInstance,
  { telegram }: { telegram: SandboxTelegram },
) => {
  app.addHook('onRequest', loopbackOnly({ error: 'The sandbox control API answers on localhost only.' }));
  app.post<{ Body: UserMessageInput }>(
    '/_sandbox/telegram/updates',
    {
      schema: {
        body: {
          type: 'object',
          required: ['from', 'text'],
          additionalProperties: false,
          properties: {
            text: { type: 'string', minLength: 1, maxLength: 4096 },
            from: {
              type: 'object',
              required: ['id'],
              additionalProperties: false,
              properties: {
                id: { type: 'integer', minimum: 1 },
                first_name: { type: 'string' },
                last_name: { type: 'string' },
                username: { type: 'string' },
                language_code: { type: 'string' },
              },
            },
          },
        },
      },
    },
    async (request) => telegram.userSends(request.body),
  );
  // A user (or an operator in a group) presses a callback button under one of the bot's messages:
  // delivered to the bot as a `callback_query` update through getUpdates.
  app.post<{ Body: CallbackPressInput }>(
    '/_sandbox/telegram/callbacks',
    {
      schema: {
        body: {
          type: 'object',
          required: ['from', 'chatId', 'messageId', 'data'],
          additionalProperties: false,
          properties: {
            chatId: { type: 'integer' },
            messageId: { type: 'integer', minimum: 1 },
            data: { type: 'string', minLength: 1, maxLength: 64 },
            from: {
              type: 'object',
              required: ['id'],
              additionalProperties: false,
              properties: {
                id: { type: 'integer', minimum: 1 },
                first_name: { type: 'string' },
                username: { type: 'string' },
                language_code: { type: 'string' },
              },
            },
          },
        },
      },
    },
    async (request, reply) => {
      try {
        return telegram.userPresses(request.body);
      } catch (error) {
        if (!(error instanceof BotApiError)) throw error;
        return reply
          .status(error.errorCode)
          .send({ ok: false, error_code: error.errorCode, description: error.description });
      }
    },
  );
  app.get<{ Params: { id: string } }>('/_sandbox/telegram/callbacks/:id', async (request, reply) => {
    const answer = telegram.callbackAnswer(request.params.id);
    return answer ? { answered: true, ...answer } : reply.status(404).send({ answered: false });
  });
  app.get<{ Params: { chatId: number } }>(
    '/_sandbox/telegram/chats/:chatId/messages',
    { schema: { params: chatParams } },
    async (request) => telegram.messagesTo(request.params.chatId),
  );
  app.post<{ Params: { chatId: number }; Body: { blocked: boolean } }>(
    '/_sandbox/telegram/chats/:chatId/blocked',
    {
      schema: {
        params: chatParams,
        body: { type: 'object', required: ['blocked'], properties: { blocked: { type: 'boolean' } } },
      },
    },
    async (request) => {
      telegram.setBlocked(request.params.chatId, request.body.blocked);
      return { chatId: request.params.chatId, blocked: request.body.blocked };
    },
  );
  app.post<{ Params: { chatId: number }; Body: { retryAfter: number; times?: number } }>(
    '/_sandbox/telegram/chats/:chatId/throttle',
    {
      schema: {
        params: chatParams,
        body: {
          type: 'object',
          required: ['retryAfter'],
          properties: {
            retryAfter: { type: 'integer', minimum: 1, maximum: 3600 },
            times: { type: 'integer', minimum: 1, maximum: 100 },
          },
        },
      },
    },
    async (request) => {
      telegram.throttle(request.params.chatId, request.body.retryAfter, request.body.times ?? 1);
      return { ok: true };
    },
  );
  app.get('/_sandbox/telegram/bot', async () => ({
    me: telegram.getMe(),
    menuButton: telegram.menuButton(),
    commands: telegram.commands,
  }));
};
