import { ConfigError, loadEnv } from '@gridbot/config';
import { createDb, pingDatabase } from '@gridbot/db';
import { createLogger, createReadiness, runMain, startAppHealthServer } from '@gridbot/runtime';
import { systemClock } from '@gridbot/services';
import { startBot } from './start-bot';

/**
 * The bot process (distributed mode): BOT_TOKEN, PUBLIC_URL (the mini app) and DATABASE_URL;
 * BOT_API_ROOT for a Bot API other than Telegram's. Polls updates and delivers notifications;
 * BOT_POLL=0 makes a replica that only delivers (Telegram allows one poller per bot). Its health
 * port (HEALTH_PORT, default 9103) serves /healthz, /readyz and /metrics.
 */
runMain('bot', async () => {
  const env = loadEnv(process.env, { require: ['BOT_TOKEN'] });
  if (!env.BOT_TOKEN) throw new ConfigError('BOT_TOKEN: required by the bot');
  if (!env.PUBLIC_URL) throw new ConfigError('PUBLIC_URL: the bot opens the mini app at this address');
  const logger = createLogger(env, 'bot');
  const db = await createDb(
    env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { pgliteDir: env.PGLITE_DIR },
  );
  try {
    const bot = await startBot({
      ctx: { prisma: db.prisma, env, log: logger, clock: systemClock },
      token: env.BOT_TOKEN,
      apiRoot: env.BOT_API_ROOT,
      miniAppUrl: env.PUBLIC_URL,
      poll: process.env.BOT_POLL !== '0',
      notifyIntervalMs: env.BOT_NOTIFY_INTERVAL_MS,
    });
    const readiness = createReadiness([{ name: 'database', check: () => pingDatabase(db.prisma) }]);
    const health = await startAppHealthServer(env, 'bot', readiness, logger);
    logger.info(`bot @${bot.bot.botInfo.username} started`);
    return {
      // docs/operations.md#shutdown: not ready, polling stops, the delivery pass in progress finishes.
      stop: async () => {
        readiness.markStopping();
        await bot.stop();
        await db.close();
        await health?.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
});
