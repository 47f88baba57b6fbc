import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BotApiError, type SandboxTelegram } from './sandbox-telegram';

type Params = Record<string, unknown>;

const fail = (reply: FastifyReply, error: BotApiError) =>
  reply.status(error.errorCode).send({
    ok: false,
    error_code: error.errorCode,
    description: error.description,
    ...(error.parameters ? { parameters: error.parameters } : {}),
  });

const int = (value: unknown, fallback: number): number => {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? Math.trunc(n) : fallback;
};

/** Telegram accepts JSON-serialized objects as strings in query and form parameters. */
const object = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw new BotApiError(400, "Bad Request: can't parse reply keyboard markup JSON object");
  }
};

/**
 * The Bot API at `/bot<token>/<method>` (GET or POST; parameters in the query string, a JSON or a
 * form body), answering `{ ok: true, result }` or `{ ok: false, error_code, description }` with
 * Telegram's HTTP statuses: the methods grammY calls for this product.
 */
export const botApiRoutes = (app: FastifyInstance, telegram: SandboxTelegram) => {
  const methods: Record<string, (params: Params, signal: AbortSignal) => unknown> = {
    getMe: () => telegram.getMe(),
    deleteWebhook: () => true,
    getUpdates: (p, signal) =>
      telegram.getUpdates(
        int(p.offset, 0),
        Math.min(Math.max(int(p.limit, 100), 1), 100),
        Math.min(Math.max(int(p.timeout, 0), 0), 50),
        signal,
      ),
    sendMessage: (p) => {
      const extra: { reply_markup?: unknown; parse_mode?: string } = {};
      if (p.reply_markup !== undefined) extra.reply_markup = object(p.reply_markup);
      if (typeof p.parse_mode === 'string') extra.parse_mode = p.parse_mode;
      return telegram.sendMessage(int(p.chat_id, Number.NaN), String(p.text ?? ''), extra);
    },
    // Bot API "answerCallbackQuery": callback_query_id, optional text (0–200 characters) and
    // show_alert; True on success.
    answerCallbackQuery: (p) => {
      const text = p.text === undefined ? undefined : String(p.text);
      if (text !== undefined && text.length > 200)
        throw new BotApiError(400, 'Bad Request: text is too long');
      return telegram.answerCallbackQuery(String(p.callback_query_id ?? ''), {
        ...(text !== undefined ? { text } : {}),
        ...(p.show_alert !== undefined
          ? { show_alert: p.show_alert === true || p.show_alert === 'true' }
          : {}),
      });
    },
    // Bot API "Updating messages": editMessageText (chat_id, message_id, text, reply_markup) and
    // editMessageReplyMarkup (chat_id, message_id, reply_markup) answer the edited Message. An
    // editMessageText without reply_markup leaves no inline keyboard.
    editMessageText: (p) => {
      const text = String(p.text ?? '');
      if (text.trim() === '') throw new BotApiError(400, 'Bad Request: message text is empty');
      return telegram.editMessage(int(p.chat_id, Number.NaN), int(p.message_id, Number.NaN), {
        text,
        reply_markup: p.reply_markup === undefined ? { inline_keyboard: [] } : object(p.reply_markup),
      });
    },
    editMessageReplyMarkup: (p) =>
      telegram.editMessage(int(p.chat_id, Number.NaN), int(p.message_id, Number.NaN), {
        reply_markup: p.reply_markup === undefined ? { inline_keyboard: [] } : object(p.reply_markup),
      }),
    setChatMenuButton: (p) => {
      telegram.setMenuButton(p.chat_id === undefined ? undefined : int(p.chat_id, 0), object(p.menu_button));
      return true;
    },
    getChatMenuButton: (p) => telegram.menuButton(p.chat_id === undefined ? undefined : int(p.chat_id, 0)),
    setMyCommands: (p) => {
      const commands = object(p.commands);
      if (!Array.isArray(commands)) throw new BotApiError(400, 'Bad Request: commands must be an array');
      telegram.commands = commands;
      return true;
    },
    getMyCommands: () => telegram.commands,
  };

  const call = async (
    request: FastifyRequest<{ Params: { token: string; method: string } }>,
    reply: FastifyReply,
  ) => {
    const { token, method } = request.params;
    if (token !== telegram.token) return fail(reply, new BotApiError(401, 'Unauthorized'));
    const handler = methods[method];
    if (!handler) return fail(reply, new BotApiError(404, 'Not Found'));
    telegram.count(method);
    const params: Params = {
      ...((request.query as Params | undefined) ?? {}),
      ...((request.body as Params | undefined) ?? {}),
    };
    const aborted = new AbortController();
    reply.raw.on('close', () => aborted.abort());
    try {
      return { ok: true, result: await handler(params, aborted.signal) };
    } catch (error) {
      if (error instanceof BotApiError) return fail(reply, error);
      throw error;
    }
  };

  // The token is part of the path segment `bot<token>`.
  app.route<{ Params: { token: string; method: string } }>({
    method: ['GET', 'POST'],
    url: '/bot:token/:method',
    handler: call,
  });
};
