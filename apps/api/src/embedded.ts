import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, loadEnv } from '@gridbot/config';
import { createInProcessQueue, reconcileCoinBotJob, reconcileJobId } from '@gridbot/jobs';
import { replayMarkets, startSandboxExchange } from '@gridbot/sandbox';
import { createExchangeClients, createSecretBox, loadSecretKeys, seedDemoTrading } from '@gridbot/services';
import { startWorker } from '@gridbot/worker';
import { startApi } from './start';

/** data/candles of the repository, above the working directory or this file. */
const findCandles = (): string => {
  for (const start of [process.cwd(), dirname(new URL(import.meta.url).pathname)]) {
    let dir = start;
    for (let i = 0; i < 6; i += 1) {
      if (existsSync(join(dir, 'data/candles'))) return join(dir, 'data/candles');
      dir = dirname(dir);
    }
  }
  throw new Error('data/candles not found: run npm start from the repository');
};

/**
 * `npm start`: everything in one process on PGlite with no external service (DESIGN §2): the
 * sandbox exchange replaying real candles (a candle a second), the API with the web app, and the
 * grid worker on the in-process queue. Demo mode is on unless DEMO=0.
 */
const main = async () => {
  const started = Date.now();
  const env = loadEnv({ DEMO: '1', ...process.env });
  const sandbox = await startSandboxExchange({
    port: env.SANDBOX_PORT,
    markets: replayMarkets(findCandles()),
    tickMs: 250,
  });
  const { app, publicUrl, demo, webServed } = await startApi({ env, migrate: true });
  const { prisma } = app.deps;
  const secretBox = createSecretBox(loadSecretKeys(env, resolve(env.PGLITE_DIR, '..', 'secrets.key')));
  const clients = createExchangeClients({
    prisma,
    secretBox,
    sandboxUrl: env.SANDBOX_EXCHANGE_URL ?? sandbox.url,
  });
  const log = (message: string) => app.log.info(message);
  const queue = createInProcessQueue((error, job) => app.log.error({ err: error }, `${job} failed`));
  const worker = await startWorker({
    prisma,
    queue,
    clients,
    reconcileConcurrency: env.WORKER_CONCURRENCY,
    scanIntervalMs: env.SCAN_INTERVAL_MS,
    sweepIntervalMs: env.SWEEP_INTERVAL_MS,
    log,
  });

  if (demo) {
    const keys = sandbox.control.createAccount({ balances: { USDT: '10000' } });
    const listed = sandbox.control.markets().map((m) => m.base);
    const { bots } = await seedDemoTrading(prisma, {
      user: demo.user,
      ...keys,
      secretBox,
      listedCoins: listed,
    });
    await queue.enqueueMany(
      reconcileCoinBotJob,
      bots.map((bot) => ({
        payload: { coinBotId: bot.id, reason: 'start' },
        options: { jobId: reconcileJobId(bot.id) },
      })),
    );
  }

  const lines = [
    '',
    `  Grid bot platform is running (${((Date.now() - started) / 1000).toFixed(1)} s): ${publicUrl}`,
    demo ? `  Demo: open ${publicUrl} in a browser — you are signed in as @${demo.user.username}.` : '',
    demo ? `  Sandbox exchange (Binance dialect, replayed real candles): ${sandbox.url}` : '',
    webServed ? '' : '  (web app not built: run `npm run build -w @gridbot/web`)',
    `  API docs: ${publicUrl}/docs`,
    '',
  ];
  process.stdout.write(`${lines.filter((l) => l !== '').join('\n')}\n`);
  const stop = async () => {
    await worker.stop();
    await queue.close();
    await app.close();
    await sandbox.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
};

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
