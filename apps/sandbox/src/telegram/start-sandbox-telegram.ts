import { randomBytes, randomInt } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { botApiRoutes } from './bot-api-routes';
import { SandboxTelegram, type SentMessage } from './sandbox-telegram';
import { telegramControlRoutes } from './telegram-control-routes';

export type SandboxTelegramServerOptions = {
  /** Default 127.0.0.1. The control API answers loopback clients only, whatever the host. */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The bot's token (default: a new random one, `<id>:<35 characters>` like BotFather's). */
  token?: string;
  /** The bot's username (getMe). */
  username?: string;
  /** Told about every message the bot sends (the demo logs them). */
  onSend?: (message: SentMessage) => void;
};

export type SandboxTelegramHandle = {
  /** The Bot API root, e.g. http://127.0.0.1:41237 (grammY's `client.apiRoot`). */
  url: string;
  token: string;
  telegram: SandboxTelegram;
  close(): Promise<void>;
};

/** A token shaped like BotFather's: numeric bot id, colon, 35 URL-safe characters. */
export const newSandboxBotToken = (): string =>
  `${randomInt(1_000_000, 9_999_999_999)}:${randomBytes(27).toString('base64url').slice(0, 35)}`;

export const buildSandboxTelegramApp = (telegram: SandboxTelegram): FastifyInstance => {
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body).trim();
    if (text === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      Object.assign(error as Error, { statusCode: 400 });
      done(error as Error, undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.setErrorHandler(async (error, _request, reply) => {
    const failure = error as { statusCode?: number; message: string };
    const status = failure.statusCode && failure.statusCode < 500 ? failure.statusCode : 500;
    return reply.status(status).send({ ok: false, error_code: status, description: failure.message });
  });
  app.get('/health', async () => ({ ok: true, services: ['telegram'] }));
  botApiRoutes(app, telegram);
  void app.register(telegramControlRoutes, { telegram });
  return app;
};

/**
 * Starts the Bot API stand-in: Telegram's HTTP Bot API for one bot (grammY points at it with
 * `client: { apiRoot: url }`) and its control API. Use `port: 0` in tests.
 */
export const startSandboxTelegram = async (
  options: SandboxTelegramServerOptions = {},
): Promise<SandboxTelegramHandle> => {
  const telegram = new SandboxTelegram({
    token: options.token ?? newSandboxBotToken(),
    ...(options.username ? { username: options.username } : {}),
    ...(options.onSend ? { onSend: options.onSend } : {}),
  });
  const app = buildSandboxTelegramApp(telegram);
  const host = options.host ?? '127.0.0.1';
  await app.listen({ host, port: options.port ?? 0 });
  const address = app.server.address();
  const port = address && typeof address === 'object' ? address.port : 0;
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${shownHost}:${port}`,
    token: telegram.token,
    telegram,
    close: async () => {
      telegram.releaseWaiters();
      await app.close();
    },
  };
};
