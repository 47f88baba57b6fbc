import { resolve } from 'node:path';
import { ConfigError, loadEnv } from '@gridbot/config';
import { createDb } from '@gridbot/db';
import { createBullQueue } from '@gridbot/jobs';
import { createExchangeClients, createSecretBox, loadSecretKeys } from '@gridbot/services';
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
  const clients = createExchangeClients({
    prisma: db.prisma,
    secretBox,
    sandboxUrl: env.SANDBOX_EXCHANGE_URL,
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
