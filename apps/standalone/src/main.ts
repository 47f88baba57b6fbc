import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findWebDist, publicUrlOf, startApi } from '@gridbot/api';
import { demoExposureWarning, loadEnv } from '@gridbot/config';
import { applyMigrations, createDb } from '@gridbot/db';
import { createInProcessQueue, reconcileCoinBotJob, reconcileJobId } from '@gridbot/jobs';
import { createLogger, runMain } from '@gridbot/runtime';
import { replayMarkets, startSandboxExchange } from '@gridbot/sandbox';
import { ensureRootAccount, openServiceContext, seedDemo, seedDemoTrading } from '@gridbot/services';
import { startWorker } from '@gridbot/worker';

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
 * `npm start`: everything in one process on PGlite with no external service (ARCHITECTURE.md): the
 * sandbox exchange replaying real candles (a candle a second), the API with the web app, and the
 * grid worker on the in-process queue. Demo mode is on unless DEMO=0. This app only composes the
 * others; none of them depends on it.
 */
runMain('gridbot', async () => {
  const started = Date.now();
  const env = loadEnv(
    { DEMO: '1', ...process.env },
    { require: ['BOT_TOKEN', 'JWT_SECRET', 'ROOT_REFERRAL_CODE', 'SECRETS_KEY'] },
  );
  const logger = createLogger(env, 'gridbot');
  const db = await createDb(
    env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { pgliteDir: env.PGLITE_DIR },
  );
  await applyMigrations(db);
  const sandbox = await startSandboxExchange({
    port: env.SANDBOX_PORT,
    markets: replayMarkets(findCandles()),
    tickMs: 250,
  });
  const queue = createInProcessQueue((error, job) => logger.error({ err: error, job }, `${job} failed`));
  const { ctx, close } = openServiceContext({
    env,
    prisma: db.prisma,
    log: logger,
    queue,
    role: 'standalone',
    sandboxUrl: env.SANDBOX_EXCHANGE_URL ?? sandbox.url,
  });
  await ensureRootAccount(ctx, {
    telegramId: env.ROOT_TELEGRAM_ID,
    username: env.ROOT_USERNAME,
    referralCode: env.ROOT_REFERRAL_CODE,
  });
  const demo = env.DEMO ? await seedDemo(ctx) : undefined;
  const publicUrl = publicUrlOf(env);
  const webDist = findWebDist(env);
  const app = await startApi({ ctx, logger, webDist, demoUser: demo?.user, publicUrl });
  const worker = await startWorker({ ctx });

  if (demo) {
    const keys = sandbox.control.createAccount({ balances: { USDT: '10000' } });
    const listed = sandbox.control.markets().map((m) => m.base);
    const { bots } = await seedDemoTrading(ctx, { user: demo.user, ...keys, listedCoins: listed });
    await queue.enqueueMany(
      reconcileCoinBotJob,
      bots.map((bot) => ({
        payload: { coinBotId: bot.id, reason: 'start' },
        options: { jobId: reconcileJobId(bot.id) },
      })),
    );
  }

  const warning = demoExposureWarning(env);
  const lines = [
    '',
    `  Grid bot platform is running (${((Date.now() - started) / 1000).toFixed(1)} s): ${publicUrl}`,
    demo ? `  Demo: open ${publicUrl} in a browser — you are signed in as @${demo.user.username}.` : '',
    demo ? `  Sandbox exchange (Binance dialect, replayed real candles): ${sandbox.url}` : '',
    webDist ? '' : '  (web app not built: run `npm run build -w @gridbot/web`)',
    `  API docs: ${publicUrl}/docs`,
    warning ? `  WARNING: ${warning}` : '',
    '',
  ];
  process.stdout.write(`${lines.filter((l) => l !== '').join('\n')}\n`);
  return {
    stop: async () => {
      await worker.stop();
      await app.close();
      await queue.close();
      await sandbox.close();
      await close();
      await db.close();
    },
  };
});
