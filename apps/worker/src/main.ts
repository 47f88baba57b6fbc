import { ConfigError, loadEnv } from '@gridbot/config';
import { createDb, pingDatabase } from '@gridbot/db';
import { createBullQueue, observeQueueDepth } from '@gridbot/jobs';
import { createLogger, createReadiness, runMain, startAppHealthServer } from '@gridbot/runtime';
import { openServiceContext } from '@gridbot/services';
import { startWorker } from './start-worker';

/**
 * The worker process (distributed mode): BullMQ on Redis, PostgreSQL, any number of replicas. Its
 * health port (HEALTH_PORT, default 9101) serves /healthz, /readyz and /metrics.
 */
runMain('worker', async () => {
  const env = loadEnv(process.env, { require: ['SECRETS_KEY'] });
  if (!env.REDIS_URL || !env.DATABASE_URL)
    throw new ConfigError('worker: DATABASE_URL and REDIS_URL are required');
  const logger = createLogger(env, 'worker');
  const db = await createDb({ databaseUrl: env.DATABASE_URL });
  const queue = createBullQueue({
    redisUrl: env.REDIS_URL,
    onError: (error, job, jobId) => logger.error({ err: error, job, jobId }, `${job} ${jobId} failed`),
  });
  observeQueueDepth(queue);
  const { ctx, close } = openServiceContext({
    env,
    prisma: db.prisma,
    log: logger,
    queue,
    role: 'worker',
    signsIn: false,
  });
  const worker = await startWorker({ ctx });
  const readiness = createReadiness([
    { name: 'database', check: () => pingDatabase(db.prisma) },
    { name: 'queue', check: () => queue.ping() },
  ]);
  const health = await startAppHealthServer(env, 'worker', readiness, logger);
  logger.info(`worker started as ${worker.owner}`);
  return {
    // docs/operations.md#shutdown: not ready, no new schedules, running jobs finish (BullMQ's
    // worker.close()), then the connections; the health port answers `stopping` until the end.
    stop: async () => {
      readiness.markStopping();
      await worker.stop();
      await queue.close();
      await close();
      await db.close();
      await health?.close();
    },
  };
});
