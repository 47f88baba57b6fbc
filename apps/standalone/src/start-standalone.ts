import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { findWebDist, publicUrlOf, startApi } from '@gridbot/api';
import { type RunningBot, startBot } from '@gridbot/bot';
import { demoExposureWarning, loadEnv } from '@gridbot/config';
import { applyMigrations, createDb } from '@gridbot/db';
import { createInProcessQueue, reconcileCoinBotJob, reconcileJobId } from '@gridbot/jobs';
import { createLogger, type Logger } from '@gridbot/runtime';
import {
  replayMarkets,
  type SandboxExchangeHandle,
  type SandboxTelegramHandle,
  type SandboxTronHandle,
  startSandboxExchange,
  startSandboxTelegram,
  startSandboxTron,
} from '@gridbot/sandbox';
import {
  type Clock,
  checkWalletsMatchXpub,
  ensureRootAccount,
  loadDepositKeys,
  loadWatcherKeys,
  openServiceContext,
  type ServiceContext,
  seedDemo,
  seedDemoTrading,
} from '@gridbot/services';
import { startSweeper, startWatcher, type Watcher } from '@gridbot/watcher';
import { startWorker } from '@gridbot/worker';
import { onDefaultOrFreePort } from './default-or-free-port';
import { writeRunFile } from './run-file';

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

export type StandaloneOptions = {
  /** One price step per this many ms (default 250: a replayed candle a second; 0: prices stand still). */
  sandboxTickMs?: number;
  /** How often the sandbox writes its state while it changes (default 2000 ms). */
  sandboxSaveEveryMs?: number;
  /** A sandbox TRON block every this many ms (default 3000, TRON's pace; 0: only through its control API). */
  tronBlockMs?: number;
  /** Print the "is running" banner (default true). */
  banner?: boolean;
  /** The process's logger (default: JSON lines on stdout at LOG_LEVEL). */
  log?: Logger;
  /** The services' clock (default the system's): tests move it past a lock or a release delay. */
  clock?: Clock;
};

export type Standalone = {
  stop: () => Promise<void>;
  /** For tests and tools that embed the launcher. */
  ctx: ServiceContext;
  sandbox: SandboxExchangeHandle;
  /** The sandbox TRON node the watcher follows (unless TRON_NODE_URL names another). */
  tron: SandboxTronHandle;
  /** The Bot API stand-in the bot talks to (absent when a real BOT_TOKEN is set). */
  telegram: SandboxTelegramHandle | undefined;
  /** The Telegram bot: /start registration and notifications. */
  bot: RunningBot;
  /** The watcher (tests run a pass with `runOnce`). */
  watcher: Watcher;
  /** The sandbox's state file (beside the PGlite folder). */
  sandboxStateFile: string;
  /** Where the API and the web app listen (the real port when PORT is 0). */
  url: string;
};

/**
 * `npm start`: everything in one process on PGlite with no external service (ARCHITECTURE.md): the
 * sandbox exchange replaying real candles, the sandbox TRON node, the API with the web app, the
 * grid worker on the in-process queue, the watcher (deposits, withdrawals) and the Telegram bot
 * (against the sandbox's Bot API stand-in unless a real BOT_TOKEN is set). Demo mode is on unless DEMO=0. The sandbox keeps its state in
 * `<dir of PGLITE_DIR>/sandbox-exchange.json`, so the demo's coin bots, lots and PnL survive a
 * restart (docs/grid.md#restarts). This app only composes the others; none of them depends on it.
 */
export const startStandalone = async (
  source: Record<string, string | undefined>,
  options: StandaloneOptions = {},
): Promise<Standalone> => {
  const started = Date.now();
  const env = loadEnv(
    // The demo releases an approved withdrawal after 20 s instead of 2 min (docs/wallet.md#release),
    // so a visitor sees one go out; WITHDRAW_RELEASE_DELAY_S overrides it.
    { DEMO: '1', ...(source.DEMO === '0' ? {} : { WITHDRAW_RELEASE_DELAY_S: '20' }), ...source },
    { require: ['BOT_TOKEN', 'JWT_SECRET', 'ROOT_REFERRAL_CODE', 'SECRETS_KEY'] },
  );
  const logger = options.log ?? createLogger(env, 'gridbot');
  const db = await createDb(
    env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { pgliteDir: env.PGLITE_DIR },
  );
  const closers: Array<() => Promise<void>> = [() => db.close()];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) await close();
  };
  try {
    // Outside demo mode the watcher needs the operator's keys: refuse to start without them.
    const keys = loadWatcherKeys(env);
    await applyMigrations(db);
    // Beside the PGlite folder: the folder's exclusive lock keeps a second launcher off this file too.
    const sandboxStateFile = resolve(env.PGLITE_DIR, '..', 'sandbox-exchange.json');
    const sandbox = await onDefaultOrFreePort(
      'sandbox exchange',
      env.SANDBOX_PORT,
      source.SANDBOX_PORT !== undefined,
      logger,
      (port) =>
        startSandboxExchange({
          port,
          markets: replayMarkets(findCandles()),
          tickMs: options.sandboxTickMs ?? 250,
          stateFile: sandboxStateFile,
          saveEveryMs: options.sandboxSaveEveryMs,
          onSaveError: (error) =>
            logger.error({ err: error }, `sandbox state ${sandboxStateFile} not written`),
        }),
    );
    closers.push(() => sandbox.close());
    // Its chain is kept beside the PGlite folder too: the watcher's cursor and the withdrawals'
    // transactions refer to it (docs/wallet.md).
    const tron = await onDefaultOrFreePort(
      'sandbox TRON node',
      env.SANDBOX_TRON_PORT ?? (env.SANDBOX_PORT === 0 ? 0 : env.SANDBOX_PORT + 1),
      source.SANDBOX_TRON_PORT !== undefined || source.SANDBOX_PORT !== undefined,
      logger,
      (port) =>
        startSandboxTron({
          port,
          blockIntervalMs: options.tronBlockMs ?? 3000,
          stateFile: resolve(env.PGLITE_DIR, '..', 'sandbox-tron.jsonl'),
          genesis: [{ address: keys.hot.address, usdt: '1000000', trx: '100000' }],
        }),
    );
    closers.push(() => tron.close());
    const queue = createInProcessQueue((error, job, jobId) =>
      logger.error({ err: error, job, jobId }, `${job} ${jobId} failed`),
    );
    closers.push(() => queue.close());
    const { ctx, close } = openServiceContext({
      // The API asks the same node the watcher follows whether an address is a contract
      // (docs/wallet.md#refused-addresses).
      env: { ...env, TRON_NODE_URL: env.TRON_NODE_URL ?? tron.url },
      prisma: db.prisma,
      log: logger,
      queue,
      role: 'standalone',
      ...(options.clock ? { clock: options.clock } : {}),
      sandboxUrl: env.SANDBOX_EXCHANGE_URL ?? sandbox.url,
      sandboxDialectUrls: {
        bybit: env.SANDBOX_BYBIT_URL ?? sandbox.bybitUrl,
        okx: env.SANDBOX_OKX_URL ?? sandbox.okxUrl,
      },
    });
    // Closed after the sandbox and before the database, as the stop order below says.
    closers.splice(1, 0, close);
    await ensureRootAccount(ctx, {
      telegramId: env.ROOT_TELEGRAM_ID,
      username: env.ROOT_USERNAME,
      referralCode: env.ROOT_REFERRAL_CODE,
    });
    const demo = env.DEMO ? await seedDemo(ctx) : undefined;
    const publicUrl = publicUrlOf(env);
    const webDist = findWebDist(env);
    const app = await onDefaultOrFreePort('the app', env.PORT, source.PORT !== undefined, logger, (port) =>
      startApi({ ctx, logger, webDist, demoUser: demo?.user, publicUrl }, port),
    );
    closers.push(() => app.close());
    const address = app.server.address();
    const url =
      address && typeof address === 'object'
        ? `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
        : publicUrl;
    // The mini app the bot's buttons open: PUBLIC_URL, else where the API really listens (PORT 0).
    const miniAppUrl =
      env.PUBLIC_URL ??
      (address && typeof address === 'object' ? `http://localhost:${address.port}` : publicUrl);
    const worker = await startWorker({ ctx });
    closers.push(() => worker.stop());
    // No real bot token: the bot talks to the Bot API stand-in, with the token the demo signs
    // launch data with, and every message it sends is logged (docs/notifications.md).
    const telegram = env.BOT_TOKEN
      ? undefined
      : await startSandboxTelegram({
          token: ctx.auth.botToken,
          username: env.BOT_USERNAME,
          onSend: (message) =>
            logger.info({ chatId: message.chat.id, text: message.text }, 'telegram: the bot sent a message'),
        });
    if (telegram) closers.push(() => telegram.close());
    const bot = await startBot({
      ctx,
      token: ctx.auth.botToken,
      apiRoot: telegram?.url ?? env.BOT_API_ROOT,
      miniAppUrl,
      notifyIntervalMs: env.BOT_NOTIFY_INTERVAL_MS,
    });
    closers.push(() => bot.stop());
    await checkWalletsMatchXpub(ctx.prisma, keys.xpub);
    const watcher = startWatcher({
      ctx,
      nodeUrl: env.TRON_NODE_URL ?? tron.url,
      hot: keys.hot,
      intervalMs: env.WATCHER_INTERVAL_MS,
    });
    closers.push(() => watcher.stop());
    // The demo sweeps with its test phrase. A real seed is opened only by the watcher process, never
    // in a process that also serves the API (docs/wallet.md#sweeps): not here.
    if (env.SWEEP_SEED_FILE) {
      logger.warn(
        'SWEEP_SEED_FILE is read by the watcher process only: the embedded launcher does not sweep with it',
      );
    }
    const deposits = env.DEMO && !env.SWEEP_SEED_FILE ? loadDepositKeys(env) : undefined;
    if (deposits) {
      const sweeper = startSweeper({
        ctx,
        node: watcher.node,
        keys: { hot: keys.hot, deposits },
        intervalMs: env.WATCHER_INTERVAL_MS,
        autoIntervalMs: env.SWEEP_AUTO_INTERVAL_MS,
      });
      closers.push(() => sweeper.stop());
    }

    if (demo) {
      const listed = sandbox.control.markets().map((m) => m.base);
      const trading = await seedDemoTrading(ctx, {
        user: demo.user,
        listedCoins: listed,
        sandbox: {
          hasApiKey: (apiKey) => sandbox.control.hasApiKey(apiKey),
          // The demo's key trusts the address the embedded process calls the sandbox from, as a
          // user's key should trust the installation's (docs/security.md#exchange-keys): no 30-day end.
          createAccount: (usdt, exchange) =>
            sandbox.control.createAccount({
              balances: { USDT: usdt },
              ipWhitelist: ['127.0.0.1'],
              // OKX's key formats: a UUID key and a 32-hex-digit secret (docs/venues/okx.md#keys).
              ...(exchange === 'okx'
                ? { apiKey: randomUUID(), secret: randomBytes(16).toString('hex').toUpperCase() }
                : {}),
            }),
          // The demo user trades on each dialect of the in-process sandbox (docs/decisions.md, demo).
          venues: ['bybit', 'okx'],
          history: {
            pastCandles: (symbol, since) => sandbox.control.pastCandles(symbol, since),
            market: (symbol) => sandbox.control.markets().find((m) => m.symbol === symbol.replace('/', ''))!,
            feePct: sandbox.feePct,
            setBalances: (apiKey, balances) => void sandbox.control.setBalances(apiKey, balances),
          },
        },
      });
      // Resumed: the first reconcile applies what filled before the stop and adopts or cancels
      // what the worker had pending, then logs its summary (docs/grid.md#restarts).
      const reason = trading.start === 'resumed' ? 'restart' : 'start';
      await queue.enqueueMany(
        reconcileCoinBotJob,
        trading.bots.map((bot) => ({
          payload: { coinBotId: bot.id, reason },
          options: { jobId: reconcileJobId(bot.id) },
        })),
      );
    }

    // Where this demo's tools find it (`npm run demo:send`): its own nodes, not whatever listens
    // on a default port.
    const removeRunFile = writeRunFile(resolve(env.PGLITE_DIR, '..'), {
      pid: process.pid,
      url,
      sandboxUrl: sandbox.url,
      tronUrl: tron.url,
      startedAt: new Date().toISOString(),
    });
    closers.push(async () => removeRunFile());

    if (options.banner !== false) {
      const warning = demoExposureWarning(env);
      const lines = [
        '',
        // Where it really listens (PORT=0 picks a free port), unless PUBLIC_URL says otherwise.
        `  Grid bot platform is running (${((Date.now() - started) / 1000).toFixed(1)} s): ${miniAppUrl}`,
        demo ? `  Demo: open ${miniAppUrl} in a browser — you are signed in as @${demo.user.username}.` : '',
        demo ? `  Sandbox exchange (Binance dialect, replayed real candles): ${sandbox.url}` : '',
        demo ? `  Its Bybit v5 dialect: ${sandbox.bybitUrl} · its OKX v5 dialect: ${sandbox.okxUrl}` : '',
        demo ? `  Sandbox TRON node: ${tron.url} (send USDT: npm run demo:send -- <address> <amount>)` : '',
        telegram ? `  Sandbox Telegram Bot API: ${telegram.url} (the bot's messages appear in this log)` : '',
        webDist ? '' : '  (web app not built: run `npm run build -w @gridbot/web`)',
        env.API_DOCS ? `  API docs: ${miniAppUrl}/docs` : '',
        warning ? `  WARNING: ${warning}` : '',
        '',
      ];
      process.stdout.write(`${lines.filter((l) => l !== '').join('\n')}\n`);
    }
    // Stop order: /readyz says `stopping` (the API's port answers for the whole process:
    // docs/operations.md#health), watcher, bot and worker (their passes finish), HTTP (requests in
    // flight finish), queue (running jobs finish), Bot API stand-in, TRON node and sandbox (their
    // last writes), service context, database.
    const stop = async () => {
      app.readiness.markStopping();
      await closeAll();
    };
    return { stop, ctx, sandbox, tron, telegram, bot, watcher, sandboxStateFile, url };
  } catch (error) {
    await closeAll();
    throw error;
  }
};
