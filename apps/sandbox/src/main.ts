import { resolve } from 'node:path';
import { ConfigError, loadEnv } from '@gridbot/config';
import { runMain } from '@gridbot/runtime';
import { DEFAULT_MARKETS, replayMarkets, startSandboxExchange } from './exchange/index';
import { startSandboxTelegram } from './telegram/index';
import { startSandboxTron } from './tron/index';

/**
 * The sandbox as its own process: the Binance-dialect exchange on SANDBOX_PORT (default 3100; 0 =
 * any free port, printed), with SANDBOX_MARKETS=replay (default: the candles of SANDBOX_CANDLES_DIR,
 * ./data/candles, rescaled to USDT) or =random (seeded random walks), prices advancing every
 * SANDBOX_TICK_MS (default 250 ms; 0 = only through the control API). SANDBOX_STATE_FILE keeps the
 * exchange's state across restarts (absent: memory only). The TRON node listens on
 * SANDBOX_TRON_PORT (default 3101), produces a block every SANDBOX_TRON_BLOCK_MS (3000; 0 = only
 * through the control API) and keeps its chain in SANDBOX_TRON_STATE_FILE (absent: memory only).
 * The Telegram Bot API stand-in listens on SANDBOX_TELEGRAM_PORT (default 3102) for BOT_TOKEN (absent:
 * a random token) and prints every message the bot sends.
 */
runMain('sandbox', async () => {
  const env = loadEnv(process.env, { require: [] });
  const port = Number(process.env.SANDBOX_PORT ?? 3100);
  const tickMs = Number(process.env.SANDBOX_TICK_MS ?? 250);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new ConfigError('SANDBOX_PORT: must be a port');
  if (!Number.isInteger(tickMs) || tickMs < 0)
    throw new ConfigError('SANDBOX_TICK_MS: must be an integer ≥ 0');
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
  const tronPort = Number(process.env.SANDBOX_TRON_PORT ?? 3101);
  const blockMs = Number(process.env.SANDBOX_TRON_BLOCK_MS ?? 3000);
  if (!Number.isInteger(tronPort) || tronPort < 0 || tronPort > 65_535)
    throw new ConfigError('SANDBOX_TRON_PORT: must be a port');
  if (!Number.isInteger(blockMs) || blockMs < 0)
    throw new ConfigError('SANDBOX_TRON_BLOCK_MS: must be an integer ≥ 0');
  const tron = await startSandboxTron({
    host: process.env.SANDBOX_HOST ?? '127.0.0.1',
    port: tronPort,
    blockIntervalMs: blockMs,
    logLevel: env.LOG_LEVEL,
    ...(process.env.SANDBOX_TRON_STATE_FILE
      ? { stateFile: resolve(process.env.SANDBOX_TRON_STATE_FILE) }
      : {}),
  });
  const telegramPort = Number(process.env.SANDBOX_TELEGRAM_PORT ?? 3102);
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
  console.log(
    `sandbox exchange on ${sandbox.url} (markets: ${sandbox.control
      .markets()
      .map((m) => m.symbol)
      .join(', ')})`,
  );
  return {
    stop: async () => {
      await telegram.close();
      await tron.close();
      await sandbox.close();
    },
  };
});
