import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { applyMigrations, createDb } from '@gridbot/db';
import pg from 'pg';
import { createFleetProcess, type FleetProcess, type FleetProcessSpec } from './fleet-process';
import { type FleetProxy, startFleetProxy } from './fleet-proxy';
import { type FleetSecrets, makeFleetSecrets } from './fleet-secrets';

/**
 * The distributed topology as local processes (docs/fleet.md): the sandbox (exchange,
 * TRON node, Bot API stand-in), N api processes behind a round-robin proxy, M workers on BullMQ,
 * the watcher and the bot, all on one PostgreSQL database and one Redis database, outside demo
 * mode with fresh secrets — the compose stack without Docker, for tests, demos and benchmarks.
 */
export type FleetOptions = {
  /** PostgreSQL server (default DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres). */
  serverUrl?: string;
  /** The database to use; absent: a fresh `gridbot_fleet_<random>`, dropped when the fleet stops. */
  database?: string;
  /** Redis with its database index (default REDIS_URL, else redis://127.0.0.1:6379/0). */
  redisUrl?: string;
  apis?: number;
  workers?: number;
  /** The proxy's port (default 0: any free port). */
  port?: number;
  /** Logs and secrets (default .data/fleet). */
  dir?: string;
  /** Print every process's output with its name. */
  echo?: boolean;
  /** Extra environment for every app (e.g. SCAN_INTERVAL_MS). */
  env?: Record<string, string>;
  /** A sandbox price step every this many ms (default 250; 0: prices move only through its control API). */
  sandboxTickMs?: number;
  /** The sandbox's markets (default replay: the candles of data/candles). */
  sandboxMarkets?: 'replay' | 'random';
  /** A sandbox TRON block every this many ms (default 3000, TRON's pace). */
  tronBlockMs?: number;
};

export type Fleet = {
  /** The proxy: the web app and the API, as users reach them. */
  url: string;
  proxy: FleetProxy;
  /** Every app process by name: sandbox, api-1…, worker-1…, watcher, bot. */
  processes: Map<string, FleetProcess>;
  process: (name: string) => FleetProcess;
  databaseUrl: string;
  redisUrl: string;
  sandbox: { exchangeUrl: string; tronUrl: string; telegramUrl: string };
  secrets: FleetSecrets;
  /** The environment every app got. */
  env: Record<string, string>;
  stop: () => Promise<void>;
};

const root = resolve(new URL('../..', import.meta.url).pathname);

export const freePort = async (): Promise<number> =>
  new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });

export const withDatabase = (serverUrl: string, database: string): string => {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
};

export const createDatabase = async (serverUrl: string, database: string): Promise<void> => {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  } finally {
    await client.end();
  }
};

export const dropDatabase = async (serverUrl: string, database: string): Promise<void> => {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
};

export const migrate = async (databaseUrl: string): Promise<void> => {
  const db = await createDb({ databaseUrl, poolMax: 2 });
  try {
    await applyMigrations(db);
  } finally {
    await db.close();
  }
};

const postJson = async (url: string, body: unknown): Promise<void> => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
};

export const startFleet = async (options: FleetOptions = {}): Promise<Fleet> => {
  for (const app of ['api', 'worker', 'watcher', 'bot', 'sandbox']) {
    if (!existsSync(join(root, `apps/${app}/dist/main.js`)))
      throw new Error(`apps/${app}/dist/main.js is missing: run npm run build first`);
  }
  const serverUrl =
    options.serverUrl ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const redisUrl = options.redisUrl ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0';
  const database = options.database ?? `gridbot_fleet_${randomBytes(4).toString('hex')}`;
  const ownDatabase = options.database === undefined;
  const dir = resolve(options.dir ?? join(root, '.data/fleet'));
  const logDir = join(dir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const secrets = makeFleetSecrets(join(dir, 'secrets'));

  await createDatabase(serverUrl, database);
  const databaseUrl = withDatabase(serverUrl, database);
  const processes = new Map<string, FleetProcess>();
  let proxy: FleetProxy | undefined;

  const stop = async (): Promise<void> => {
    // Front to back: nobody new comes in, the apps drain, the sandbox (their outside world) goes last.
    await proxy?.close();
    const order = [...processes.values()].reverse();
    const apps = order.filter((p) => p.name !== 'sandbox');
    await Promise.all(apps.map((p) => p.stop()));
    await processes.get('sandbox')?.stop();
    if (ownDatabase) await dropDatabase(serverUrl, database).catch(() => {});
  };

  try {
    await migrate(databaseUrl);
    const ports = {
      exchange: await freePort(),
      tron: await freePort(),
      telegram: await freePort(),
      apis: await Promise.all(Array.from({ length: options.apis ?? 2 }, freePort)),
    };
    const sandbox = {
      exchangeUrl: `http://127.0.0.1:${ports.exchange}`,
      tronUrl: `http://127.0.0.1:${ports.tron}`,
      telegramUrl: `http://127.0.0.1:${ports.telegram}`,
    };
    const add = async (spec: FleetProcessSpec): Promise<FleetProcess> => {
      const process_ = createFleetProcess(spec, { root, logDir, echo: options.echo ?? false });
      processes.set(spec.name, process_);
      await process_.start();
      return process_;
    };

    await add({
      name: 'sandbox',
      script: 'apps/sandbox/dist/main.js',
      ready: { line: /sandbox exchange on/ },
      env: {
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        SANDBOX_PORT: String(ports.exchange),
        SANDBOX_TRON_PORT: String(ports.tron),
        SANDBOX_TELEGRAM_PORT: String(ports.telegram),
        SANDBOX_TICK_MS: String(options.sandboxTickMs ?? 250),
        SANDBOX_MARKETS: options.sandboxMarkets ?? 'replay',
        SANDBOX_TRON_BLOCK_MS: String(options.tronBlockMs ?? 3000),
        SANDBOX_CANDLES_DIR: join(root, 'data/candles'),
        BOT_TOKEN: secrets.botToken,
        // Its own health port (docs/operations.md#ports): the defaults would clash between replicas.
        HEALTH_PORT: String(await freePort()),
      },
    });
    // The hot wallet pays withdrawals: USDT to send and TRX for the network's energy.
    await postJson(`${sandbox.tronUrl}/_sandbox/tron/send`, {
      to: secrets.hotWalletAddress,
      amount: '1000000',
    });
    await postJson(`${sandbox.tronUrl}/_sandbox/tron/send-trx`, {
      to: secrets.hotWalletAddress,
      amount: '100000',
    });

    const proxyPort = options.port ?? 0;
    proxy = await startFleetProxy(ports.apis, proxyPort);
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      HOST: '127.0.0.1',
      PUBLIC_URL: proxy.url,
      TRUST_PROXY_HOPS: '1',
      BOT_TOKEN: secrets.botToken,
      BOT_API_ROOT: sandbox.telegramUrl,
      JWT_SECRET: secrets.jwtSecret,
      ROOT_REFERRAL_CODE: secrets.rootReferralCode,
      SECRETS_KEY_FILE: secrets.secretsKeyFile,
      WALLET_XPUB: secrets.walletXpub,
      HOT_WALLET_KEY_FILE: secrets.hotWalletKeyFile,
      TRON_NODE_URL: sandbox.tronUrl,
      EXCHANGE_MODE: 'sandbox',
      SANDBOX_EXCHANGE_URL: sandbox.exchangeUrl,
      ...options.env,
    };
    // Each process its own health port (docs/operations.md#ports: two workers on one host would
    // otherwise both ask for the worker's default), and ready when its /readyz says so.
    const app = async (
      name: string,
      script: string,
      own: Record<string, string> = {},
    ): Promise<FleetProcessSpec> => {
      const port = own.PORT ?? String(await freePort());
      return {
        name,
        script,
        ready: { url: `http://127.0.0.1:${port}/readyz` },
        env: { ...env, ...own, ...(own.PORT ? {} : { HEALTH_PORT: port }) },
      };
    };
    // Every app at once, as a supervisor starts them: each waits for its own dependencies.
    const specs: FleetProcessSpec[] = [
      ...(await Promise.all(
        ports.apis.map((port, index) =>
          app(`api-${index + 1}`, 'apps/api/dist/main.js', { PORT: String(port) }),
        ),
      )),
      ...(await Promise.all(
        Array.from({ length: options.workers ?? 2 }, (_, index) =>
          app(`worker-${index + 1}`, 'apps/worker/dist/main.js'),
        ),
      )),
      await app('watcher', 'apps/watcher/dist/main.js'),
      await app('bot', 'apps/bot/dist/main.js'),
    ];
    await Promise.all(specs.map(add));

    return {
      url: proxy.url,
      proxy,
      processes,
      process: (name) => {
        const found = processes.get(name);
        if (!found) throw new Error(`no fleet process ${name}`);
        return found;
      },
      databaseUrl,
      redisUrl,
      sandbox,
      secrets,
      env,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
};
