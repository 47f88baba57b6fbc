import { resolve } from 'node:path';
import { ConfigError, loadEnv } from '@gridbot/config';
import { createLogger, createReadiness, runMain, startAppHealthServer } from '@gridbot/runtime';
import { binance } from '@gridbot/venues';
import { DEFAULT_MARKETS, replayMarkets, startSandboxExchange } from './exchange/index';
import { startSandboxTelegram } from './telegram/index';
import { startSandboxTron } from './tron/index';

/**
 * The sandbox as its own process: the Binance-dialect exchange on SANDBOX_PORT (default 3100; 0 =
 * any free port, printed), with SANDBOX_MARKETS=replay (default: the candles of SANDBOX_CANDLES_DIR,
 * ./data/candles, rescaled to USDT) or =random (seeded random walks), prices advancing every
 * SANDBOX_TICK_MS (default 250 ms; 0 = only through the control API). SANDBOX_STATE_FILE keeps the
 * exchange's state across restarts (absent: memory only). The TRON node listens on
 * SANDBOX_TRON_PORT (default 3101; any free port when SANDBOX_PORT is 0), produces a block every SANDBOX_TRON_BLOCK_MS (3000; 0 = only
 * through the control API) and keeps its chain in SANDBOX_TRON_STATE_FILE (absent: memory only).
 * The Bybit v5 and OKX v5 dialects of the same exchange listen on SANDBOX_BYBIT_PORT and
 * SANDBOX_OKX_PORT (default: any free port, printed). The Telegram Bot API stand-in listens on SANDBOX_TELEGRAM_PORT (default 3102, or any free
 * port like the TRON node) for BOT_TOKEN (absent:
 * a random token) and prints every message the bot sends. Its health port (HEALTH_PORT, default
 * 9104) serves /healthz, /readyz and /metrics.
 */
/** An integer variable between `min` and `max`, or its default; anything else stops the start. */
const integerVar = (name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new ConfigError(`${name}: must be an integer from 0 to ${max}`);
  }
  return value;
};

/**
 * SANDBOX_LIMITS lowers (or raises) Binance's rate limits, e.g. `REQUEST_WEIGHT=600,ORDERS_10S=20`
 * (pool ids of packages/venues), to show the engine meeting them; absent: Binance's own.
 */
const poolLimits = (raw: string | undefined): Record<string, number> => {
  const limits: Record<string, number> = {};
  for (const part of (raw ?? '').split(',').filter((p) => p.trim() !== '')) {
    const [id, value] = part.split('=').map((s) => s.trim());
    if (!binance.pools.some((p) => p.id === id) || !/^\d+$/.test(value ?? '') || Number(value) < 1) {
      throw new ConfigError(
        `SANDBOX_LIMITS: must be POOL=limit pairs, e.g. REQUEST_WEIGHT=600,ORDERS_10S=20 (${binance.pools.map((p) => p.id).join(', ')})`,
      );
    }
    limits[id!] = Number(value);
  }
  return limits;
};

runMain('sandbox', async () => {
  const env = loadEnv(process.env, { require: [] });
  // First: its BOT_TOKEN is registered before any server logs (docs/security.md#logs).
  const log = createLogger(env, 'sandbox');
  const port = integerVar('SANDBOX_PORT', 3100, 65_535);
  const tickMs = integerVar('SANDBOX_TICK_MS', 250);
  const kind = process.env.SANDBOX_MARKETS ?? 'replay';
  if (kind !== 'replay' && kind !== 'random')
    throw new ConfigError('SANDBOX_MARKETS: must be replay or random');
  const replayed =
    kind === 'replay' ? replayMarkets(resolve(process.env.SANDBOX_CANDLES_DIR ?? 'data/candles')) : [];
  const sandbox = await startSandboxExchange({
    limits: poolLimits(process.env.SANDBOX_LIMITS),
    host: process.env.SANDBOX_HOST ?? '127.0.0.1',
    port,
    // No fixed default: a port another program holds must not stop the sandbox (printed at start).
    bybitPort: integerVar('SANDBOX_BYBIT_PORT', 0, 65_535),
    okxPort: integerVar('SANDBOX_OKX_PORT', 0, 65_535),
    tickMs,
    markets: replayed.length > 0 ? replayed : DEFAULT_MARKETS,
    logLevel: env.LOG_LEVEL,
    ...(process.env.SANDBOX_STATE_FILE ? { stateFile: resolve(process.env.SANDBOX_STATE_FILE) } : {}),
  });
  const tron = await startSandboxTron({
    host: process.env.SANDBOX_HOST ?? '127.0.0.1',
    // SANDBOX_PORT=0 (any free port) makes the others any free port too, so two sandboxes never collide.
    port: integerVar('SANDBOX_TRON_PORT', port === 0 ? 0 : 3101, 65_535),
    blockIntervalMs: integerVar('SANDBOX_TRON_BLOCK_MS', 3000),
    logLevel: env.LOG_LEVEL,
    ...(process.env.SANDBOX_TRON_STATE_FILE
      ? { stateFile: resolve(process.env.SANDBOX_TRON_STATE_FILE) }
      : {}),
  });
  const telegramPort = Number(process.env.SANDBOX_TELEGRAM_PORT ?? (port === 0 ? 0 : 3102));
  if (!Number.isInteger(telegramPort) || telegramPort < 0 || telegramPort > 65_535)
    throw new ConfigError('SANDBOX_TELEGRAM_PORT: must be a port');
  // The bot process points BOT_API_ROOT here with the same BOT_TOKEN.
  const telegram = await startSandboxTelegram({
    host: process.env.SANDBOX_HOST ?? '127.0.0.1',
    port: telegramPort,
    ...(env.BOT_TOKEN ? { token: env.BOT_TOKEN } : {}),
    username: env.BOT_USERNAME,
    onSend: (message) => console.log(`telegram → ${message.chat.id}: ${message.text}`),
  });
  console.log(`sandbox TRON node on ${tron.url} (USDT ${tron.tron.status().usdtContract})`);
  console.log(`sandbox Telegram Bot API on ${telegram.url} (bot @${telegram.telegram.username})`);
  console.log(`sandbox Bybit v5 on ${sandbox.bybitUrl}`);
  console.log(`sandbox OKX v5 on ${sandbox.okxUrl}`);
  console.log(
    `sandbox exchange on ${sandbox.url} (markets: ${sandbox.control
      .markets()
      .map((m) => m.symbol)
      .join(', ')})`,
  );
  // Nothing outside it to depend on: ready while it runs, `stopping` once it stops.
  const readiness = createReadiness([]);
  const health = await startAppHealthServer(env, 'sandbox', readiness, log);
  return {
    stop: async () => {
      readiness.markStopping();
      await telegram.close();
      await tron.close();
      await sandbox.close();
      await health?.close();
    },
  };
});
