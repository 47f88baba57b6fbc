import { randomBytes } from 'node:crypto';
import { loadEnv } from '@gridbot/config';
import type { PrismaClient, User } from '@gridbot/db';
import { createTestDb, type TestDb } from '@gridbot/db/testing';
import { type SandboxTelegramHandle, startSandboxTelegram } from '@gridbot/sandbox';
import type { Clock, DataContext } from '@gridbot/services';
import { silentLogger } from '@gridbot/services/testing';
import { type BotOptions, type RunningBot, startBot } from '../../src/start-bot';

export const MINI_APP_URL = 'https://app.gridbot.test';

/** A clock the test moves (retry_after and backoff without waiting). */
export const testClock = () => {
  let now = new Date();
  const clock: Clock & { advance: (ms: number) => void } = {
    now: () => now,
    advance: (ms) => {
      now = new Date(now.getTime() + ms);
    },
  };
  return clock;
};

export type BotHarness = Awaited<ReturnType<typeof createBotHarness>>;

/**
 * A real database, the sandbox Bot API over HTTP, and bots started against it (grammY through
 * `client.apiRoot`), each with the same database: bot processes as distributed mode runs them.
 */
export const createBotHarness = async (envOverrides: Record<string, string> = {}) => {
  const db: TestDb = await createTestDb();
  const prisma: PrismaClient = db.prisma;
  const telegram: SandboxTelegramHandle = await startSandboxTelegram();
  const clock = testClock();
  const env = loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...envOverrides });
  const ctx: DataContext = { prisma, env, log: silentLogger, clock };
  const root = await prisma.user.create({
    data: {
      telegramId: 0n,
      username: 'root',
      usernameKey: 'root',
      firstName: 'Root',
      referralCode: 'rootcode1',
      isRoot: true,
    },
  });
  const bots: RunningBot[] = [];
  let nextTelegramId = 7_000_000;

  /** A bot process; no timers (tests call deliverOnce), polling unless `poll: false`. */
  const bot = async (options: Partial<BotOptions> = {}) => {
    const running = await startBot({
      ctx,
      token: telegram.token,
      apiRoot: telegram.url,
      miniAppUrl: MINI_APP_URL,
      notifyIntervalMs: 0,
      dailySummaryIntervalMs: 0,
      ...options,
    });
    bots.push(running);
    return running;
  };

  /** A registered user with a product language (the `localization` config, as sign-in stores it). */
  const user = async (language: 'en' | 'ru' | 'cn' = 'en'): Promise<User> => {
    nextTelegramId += 1;
    return prisma.user.create({
      data: {
        telegramId: BigInt(nextTelegramId),
        username: `u${nextTelegramId}`,
        usernameKey: `u${nextTelegramId}`,
        firstName: 'Test',
        referralCode: `c${randomBytes(5).toString('hex')}`,
        sponsorId: root.id,
        configs: { create: { name: 'localization', value: language } },
      },
    });
  };

  let seq = 0;
  /** A row in the outbox, as a producer writes it. */
  const notify = (userId: number, kind: string, data: object) => {
    seq += 1;
    // Written at the test clock's time (the database's own now() would be ahead of it).
    const at = clock.now();
    return prisma.notification.create({
      data: { userId, kind, data, dedupeKey: `test:${kind}:${seq}`, createdAt: at, nextAttemptAt: at },
    });
  };

  /** Delivery passes until nothing is due. */
  const drain = async (running: RunningBot) => {
    for (let i = 0; i < 50; i += 1) if ((await running.deliverOnce()).claimed === 0) return;
    throw new Error('the outbox did not drain');
  };

  return {
    prisma,
    ctx,
    clock,
    telegram,
    root,
    bot,
    user,
    notify,
    drain,
    close: async () => {
      for (const running of bots) await running.stop();
      await telegram.close();
      await db.close();
    },
  };
};
