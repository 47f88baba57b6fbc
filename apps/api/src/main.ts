import { ConfigError, loadEnv } from '@gridbot/config';
import { createDb } from '@gridbot/db';
import { createBullQueue } from '@gridbot/jobs';
import { createLogger, runMain } from '@gridbot/runtime';
import { ensureRootAccount, openServiceContext } from '@gridbot/services';
import { Redis } from 'ioredis';
import { findWebDist, publicUrlOf, startApi, stopApi } from './start';

/**
 * The API as its own process (distributed mode: PostgreSQL, Redis for rate limits and for the
 * jobs it enqueues). Migrations are a separate deploy step; the embedded mode is apps/standalone.
 */
runMain('api', async () => {
  const env = loadEnv(process.env, {
    require: ['BOT_TOKEN', 'JWT_SECRET', 'ROOT_REFERRAL_CODE', 'SECRETS_KEY'],
  });
  if (!env.DATABASE_URL || !env.REDIS_URL)
    throw new ConfigError('api: DATABASE_URL and REDIS_URL are required');
  const logger = createLogger(env, 'api');
  const db = await createDb({ databaseUrl: env.DATABASE_URL });
  const queue = createBullQueue({ redisUrl: env.REDIS_URL });
  const { ctx, close } = openServiceContext({ env, prisma: db.prisma, log: logger, queue, role: 'api' });
  await ensureRootAccount(ctx, {
    telegramId: env.ROOT_TELEGRAM_ID,
    username: env.ROOT_USERNAME,
    referralCode: env.ROOT_REFERRAL_CODE,
  });
  const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
  const app = await startApi({ ctx, logger, redis, webDist: findWebDist(env), publicUrl: publicUrlOf(env) });
  logger.info(`api listening on ${env.HOST}:${env.PORT} (health: /healthz, /readyz, /metrics)`);
  return {
    stop: async () => {
      await stopApi(app);
      await queue.close();
      redis.disconnect();
      await close();
      await db.close();
    },
  };
});
