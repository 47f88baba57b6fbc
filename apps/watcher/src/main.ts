import { ConfigError, loadEnv } from '@gridbot/config';
import { createDb, pingDatabase } from '@gridbot/db';
import { createLogger, createReadiness, runMain, startAppHealthServer } from '@gridbot/runtime';
import { checkWalletsMatchXpub, loadDepositKeys, loadWatcherKeys, systemClock } from '@gridbot/services';
import { startSweeper } from './start-sweeper';
import { startWatcher } from './start-watcher';

/**
 * The watcher process (distributed mode): follows the TRON node at TRON_NODE_URL every
 * WATCHER_INTERVAL_MS, crediting deposits, sending withdrawals and watching the hot wallet; with
 * SWEEP_SEED_FILE it also sweeps deposit addresses. Needs DATABASE_URL, and outside demo mode
 * WALLET_XPUB and HOT_WALLET_KEY_FILE. Any number of replicas may run. Its health port
 * (HEALTH_PORT, default 9102) serves /healthz, /readyz and /metrics.
 */
runMain('watcher', async () => {
  const env = loadEnv(process.env, { require: [] });
  if (!env.DATABASE_URL) throw new ConfigError('watcher: DATABASE_URL is required');
  if (!env.TRON_NODE_URL) throw new ConfigError('TRON_NODE_URL: required (the full node or TronGrid URL)');
  const { hot, xpub } = loadWatcherKeys(env);
  // The deposit keys exist in this process only, and only with SWEEP_SEED_FILE (docs/wallet.md#sweeps).
  const deposits = loadDepositKeys(env);
  const log = createLogger(env, 'watcher');
  const db = await createDb({ databaseUrl: env.DATABASE_URL });
  try {
    await checkWalletsMatchXpub(db.prisma, xpub);
  } catch (error) {
    await db.close();
    throw error;
  }
  const ctx = { prisma: db.prisma, env, log, clock: systemClock };
  const watcher = startWatcher({ ctx, nodeUrl: env.TRON_NODE_URL, hot, intervalMs: env.WATCHER_INTERVAL_MS });
  const sweeper = deposits
    ? startSweeper({
        ctx,
        node: watcher.node,
        keys: { hot, deposits },
        intervalMs: env.WATCHER_INTERVAL_MS,
        autoIntervalMs: env.SWEEP_AUTO_INTERVAL_MS,
      })
    : undefined;
  if (!sweeper) log.info('no SWEEP_SEED_FILE: deposits stay on their addresses (no sweeper)');
  // The node is not a readiness dependency: a pass that cannot reach it is retried, and restarting
  // the watcher would not bring the node back.
  const readiness = createReadiness([{ name: 'database', check: () => pingDatabase(db.prisma) }]);
  const health = await startAppHealthServer(env, 'watcher', readiness, log);
  return {
    // docs/operations.md#shutdown: not ready, then the pass in progress (its block step) finishes.
    stop: async () => {
      readiness.markStopping();
      await Promise.all([watcher.stop(), sweeper?.stop()]);
      await db.close();
      await health?.close();
    },
  };
});
