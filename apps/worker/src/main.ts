import { resolve } from 'node:path';
import { ConfigError, loadEnv } from '@gridbot/config';
import { createDb } from '@gridbot/db';
import { createBullQueue } from '@gridbot/jobs';
import { createExchangeClients, createRedisPacer, createSecretBox, loadSecretKeys } from '@gridbot/services';
import { Redis } from 'ioredis';
import { startWorker } from './start-worker';

/** The worker process (distributed mode): BullMQ on Redis, PostgreSQL, any number of replicas. */
const main = async () => {
  const env = loadEnv();
  if (!env.REDIS_URL || !env.DATABASE_URL)
    throw new ConfigError('worker: DATABASE_URL and REDIS_URL are required');
  const db = await createDb({ databaseUrl: env.DATABASE_URL });
  const log = (message: string) => console.log(`worker: ${message}`);
  const queue = createBullQueue({
    redisUrl: env.REDIS_URL,
    onError: (error, job) => log(`${job} failed: ${String(error)}`),
  });
  const secretBox = createSecretBox(loadSecretKeys(env, resolve(env.PGLITE_DIR, '..', 'secrets.key')));
  // One request budget per API key for all replicas (ccxt's own limiter is per process).
  const redis = new Redis(env.REDIS_URL);
  const pacers = new Map<string, (costMs: number) => Promise<number>>();
  const pacerFor = (apiKeyId: string) => {
    let pace = pacers.get(apiKeyId);
    if (!pace) {
      pace = createRedisPacer(redis, 'gridbot:', apiKeyId).pace;
      pacers.set(apiKeyId, pace);
    }
    return pace;
  };
  const clients = createExchangeClients({
    prisma: db.prisma,
    secretBox,
    sandboxUrl: env.SANDBOX_EXCHANGE_URL,
    pacerFor,
  });
  const worker = await startWorker({
    prisma: db.prisma,
    queue,
    clients,
    reconcileConcurrency: env.WORKER_CONCURRENCY,
    scanIntervalMs: env.SCAN_INTERVAL_MS,
    sweepIntervalMs: env.SWEEP_INTERVAL_MS,
    log,
  });
  log(`started as ${worker.owner}`);
  const stop = async () => {
    await worker.stop();
    await queue.close();
    redis.disconnect();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
};

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
