import { ConfigError, loadEnv } from '@gridbot/config';
import { createDb } from '@gridbot/db';
import { createBullQueue } from '@gridbot/jobs';
import { createLogger, runMain } from '@gridbot/runtime';
import { openServiceContext } from '@gridbot/services';
import { startWorker } from './start-worker';

/** The worker process (distributed mode): BullMQ on Redis, PostgreSQL, any number of replicas. */
runMain('worker', async () => {
  const env = loadEnv(process.env, { require: ['SECRETS_KEY'] });
  if (!env.REDIS_URL || !env.DATABASE_URL)
    throw new ConfigError('worker: DATABASE_URL and REDIS_URL are required');
  const logger = createLogger(env, 'worker');
  const db = await createDb({ databaseUrl: env.DATABASE_URL });
  const queue = createBullQueue({
    redisUrl: env.REDIS_URL,
    onError: (error, job) => logger.error({ err: error, job }, `${job} failed`),
  });
  const { ctx, close } = openServiceContext({
    env,
    prisma: db.prisma,
    log: logger,
    queue,
    role: 'worker',
    signsIn: false,
  });
  const worker = await startWorker({ ctx });
  logger.info(`worker started as ${worker.owner}`);
  return {
    stop: async () => {
      await worker.stop();
      await queue.close();
      await close();
      await db.close();
    },
  };
});
