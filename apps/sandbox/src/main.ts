import { resolve } from 'node:path';
import { ConfigError, loadEnv } from '@gridbot/config';
import { runMain } from '@gridbot/runtime';
import { DEFAULT_MARKETS, replayMarkets, startSandboxExchange } from './exchange/index';
import { startSandboxTron } from './tron/index';

/**
 * The sandbox as its own process: the Binance-dialect exchange on SANDBOX_PORT (default 3100; 0 =
 * any free port, printed), with SANDBOX_MARKETS=replay (default: the candles of SANDBOX_CANDLES_DIR,
 * ./data/candles, rescaled to USDT) or =random (seeded random walks), prices advancing every
 * SANDBOX_TICK_MS (default 250 ms; 0 = only through the control API). SANDBOX_STATE_FILE keeps the
 * exchange's state across restarts (absent: memory only). The TRON node listens on
 * SANDBOX_TRON_PORT (default 3101), produces a block every SANDBOX_TRON_BLOCK_MS (3000; 0 = only
 * through the control API) and keeps its chain in SANDBOX_TRON_STATE_FILE (absent: memory only).
 */
/** An integer variable between `min` and `max`, or its default; anything else stops the start. */
const integerVar = (name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new ConfigError(`${name}: must be an integer from 0 to ${max}`);
  }
  return value;
};

runMain('sandbox', async () => {
  const env = loadEnv(process.env, { require: [] });
  const port = integerVar('SANDBOX_PORT', 3100, 65_535);
  const tickMs = integerVar('SANDBOX_TICK_MS', 250);
  const kind = process.env.SANDBOX_MARKETS ?? 'replay';
  if (kind !== 'replay' && kind !== 'random')
    throw new ConfigError('SANDBOX_MARKETS: must be replay or random');
  const replayed =
    kind === 'replay' ? replayMarkets(resolve(process.env.SANDBOX_CANDLES_DIR ?? 'data/candles')) : [];
  const sandbox = await startSandboxExchange({
    host: process.env.SANDBOX_HOST ?? '127.0.0.1',
    port,
    tickMs,
    markets: replayed.length > 0 ? replayed : DEFAULT_MARKETS,
    logLevel: env.LOG_LEVEL,
    ...(process.env.SANDBOX_STATE_FILE ? { stateFile: resolve(process.env.SANDBOX_STATE_FILE) } : {}),
  });
  const tron = await startSandboxTron({
    host: process.env.SANDBOX_HOST ?? '127.0.0.1',
    port: integerVar('SANDBOX_TRON_PORT', 3101, 65_535),
    blockIntervalMs: integerVar('SANDBOX_TRON_BLOCK_MS', 3000),
    logLevel: env.LOG_LEVEL,
    ...(process.env.SANDBOX_TRON_STATE_FILE
      ? { stateFile: resolve(process.env.SANDBOX_TRON_STATE_FILE) }
      : {}),
  });
  console.log(`sandbox TRON node on ${tron.url} (USDT ${tron.tron.status().usdtContract})`);
  console.log(
    `sandbox exchange on ${sandbox.url} (markets: ${sandbox.control
      .markets()
      .map((m) => m.symbol)
      .join(', ')})`,
  );
  return {
    stop: async () => {
      await tron.close();
      await sandbox.close();
    },
  };
});
