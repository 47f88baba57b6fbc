import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDb } from '@gridbot/db';
import { fundWallet, signLaunchData } from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, expectOk, waitUntil } from '../fleet-client';
import { createFleetProcess, type FleetProcess, type FleetProcessSpec } from '../fleet-process';
import { makeFleetSecrets } from '../fleet-secrets';
import { type PrivateService, startPrivateRedis } from '../private-services';
import { REFUSAL_MARK, type RefusingFront, startRefusingFront } from '../refusing-front';
import { createDatabase, dropDatabase, freePort, migrate, withDatabase } from '../start-fleet';

// docs/security.md#logs: no configured secret and no user's exchange key in any log line of any
// app. The built apps run as separate processes (api, worker, watcher, bot, sandbox) with sentinel
// secrets — unique strings, most through <NAME>_FILE as compose hands them over — and are driven
// down their failure paths by servers that refuse them and echo back what they were sent (headers
// with API keys, a Bot API URL with the token): the watcher against a TRON node answering 500, 401
// and 429, the bot against a Bot API answering 401, the worker and the api against an exchange
// that refuses a user's keys, and every app losing its database. Each app's log must show the
// failure (so the test is not vacuous) and carry no sentinel, raw, URL-encoded or base64.
const root = resolve(new URL('../../..', import.meta.url).pathname);
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

const secrets = {
  botToken: `7000123:SENTINEL_BOT_${hex(16)}`,
  sandboxBotToken: `7000456:SENTINEL_SANDBOX_BOT_${hex(16)}`,
  jwtSecret: `SENTINEL_JWT_${hex(24)}`,
  tronApiKey: `SENTINEL_TRON_KEY_${hex(16)}`,
  metricsToken: `SENTINEL_METRICS_${hex(16)}`,
  databasePassword: `SENTINEL_DB_PASSWORD_${hex(16)}`,
  redisPassword: `SENTINEL_REDIS_PASSWORD_${hex(16)}`,
  secretsKey: hex(32),
  hotWalletKey: hex(32),
  exchangeApiKey: `SENTINELEXCHANGEKEY${hex(16)}`,
  exchangeSecret: `SENTINELEXCHANGESECRET${hex(16)}`,
  refusedApiKey: `SENTINELREFUSEDKEY${hex(16)}`,
  refusedSecret: `SENTINELREFUSEDSECRET${hex(16)}`,
};
const rootReferralCode = `logs${hex(8)}`;

/** Every form a secret could take in a line: as is, URL-encoded, base64 (a Basic header). */
const formsOf = (value: string) => [
  value,
  encodeURIComponent(value),
  Buffer.from(value).toString('base64'),
  Buffer.from(value).toString('base64url'),
  value.toUpperCase(),
];
/** The bot token's secret part too (its numeric id alone is public). */
const sentinels = [
  ...Object.values(secrets),
  secrets.botToken.split(':')[1] as string,
  secrets.sandboxBotToken.split(':')[1] as string,
];

const dir = mkdtempSync(join(tmpdir(), 'gridbot-log-secrets-'));
const logDir = join(dir, 'logs');
const secretFile = (name: string, value: string) => {
  const path = join(dir, name);
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  return path;
};

let redis: PrivateService;
let serverUrl: string;
let database: string;
let databaseUrl: string;
let tronNode: RefusingFront;
let botApi: RefusingFront;
let exchange: RefusingFront;
let apiUrl: string;
let sandboxExchangeUrl: string;
const processes = new Map<string, FleetProcess>();

const logOf = (name: string): string => {
  try {
    return readFileSync(join(logDir, `${name}.log`), 'utf8');
  } catch {
    return '';
  }
};
/** The JSON lines of an app's log (its other lines: runMain's own words on stderr). */
const jsonLines = (name: string): Array<Record<string, unknown> & { line: string }> =>
  logOf(name)
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => ({ ...(JSON.parse(line) as Record<string, unknown>), line }));

const start = async (spec: FleetProcessSpec): Promise<FleetProcess> => {
  const process_ = createFleetProcess(spec, { root, logDir, echo: false });
  processes.set(spec.name, process_);
  await process_.start(120_000);
  return process_;
};

beforeAll(async () => {
  mkdirSync(logDir, { recursive: true });
  serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  database = `gridbot_secrets_${hex(4)}`;
  await createDatabase(serverUrl, database);
  await migrate(withDatabase(serverUrl, database));
  // The local server trusts its clients, so the sentinel password is sent and never checked.
  const url = new URL(withDatabase(serverUrl, database));
  url.username = url.username || 'postgres';
  url.password = secrets.databasePassword;
  databaseUrl = url.toString();
  redis = await startPrivateRedis(await freePort(), { password: secrets.redisPassword });

  const ports = { exchange: await freePort(), tron: await freePort(), telegram: await freePort() };
  sandboxExchangeUrl = `http://127.0.0.1:${ports.exchange}`;
  await start({
    name: 'sandbox',
    script: 'apps/sandbox/dist/main.js',
    ready: { line: /sandbox exchange on/ },
    env: {
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      SANDBOX_PORT: String(ports.exchange),
      SANDBOX_TRON_PORT: String(ports.tron),
      SANDBOX_TELEGRAM_PORT: String(ports.telegram),
      SANDBOX_TICK_MS: '0',
      SANDBOX_MARKETS: 'replay',
      SANDBOX_TRON_BLOCK_MS: '0',
      SANDBOX_CANDLES_DIR: join(root, 'data/candles'),
      BOT_TOKEN_FILE: secretFile('sandbox_bot_token', secrets.sandboxBotToken),
      METRICS_TOKEN: secrets.metricsToken,
      HEALTH_PORT: String(await freePort()),
    },
  });
  // 500s: the exchange unavailable (a 401 would be the user's invalid key, a 4xx logged by its code).
  exchange = await startRefusingFront({ target: sandboxExchangeUrl, statuses: [500] });
  tronNode = await startRefusingFront();
  botApi = await startRefusingFront({ statuses: [401] });

  const common = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    HOST: '127.0.0.1',
    DATABASE_URL_FILE: secretFile('database_url', databaseUrl),
    REDIS_URL: redis.url,
    PUBLIC_URL: 'https://grid.example.org',
    METRICS_TOKEN: secrets.metricsToken,
    TRON_API_KEY_FILE: secretFile('tron_api_key', secrets.tronApiKey),
    EXCHANGE_MODE: 'sandbox',
    SANDBOX_EXCHANGE_URL: exchange.url,
  };
  const apiPort = await freePort();
  apiUrl = `http://127.0.0.1:${apiPort}`;
  const wallet = makeFleetSecrets(join(dir, 'wallet'));
  const healthPorts = { worker: await freePort(), watcher: await freePort() };
  await Promise.all([
    start({
      name: 'api',
      script: 'apps/api/dist/main.js',
      ready: { url: `${apiUrl}/readyz` },
      env: {
        ...common,
        PORT: String(apiPort),
        BOT_TOKEN_FILE: secretFile('bot_token', secrets.botToken),
        JWT_SECRET_FILE: secretFile('jwt_secret', secrets.jwtSecret),
        ROOT_REFERRAL_CODE: rootReferralCode,
        SECRETS_KEY_FILE: secretFile('secrets_key', secrets.secretsKey),
      },
    }),
    start({
      name: 'worker',
      script: 'apps/worker/dist/main.js',
      ready: { url: `http://127.0.0.1:${healthPorts.worker}/readyz` },
      env: {
        ...common,
        HEALTH_PORT: String(healthPorts.worker),
        SECRETS_KEY_FILE: secretFile('secrets_key', secrets.secretsKey),
        SWEEP_INTERVAL_MS: '1000',
      },
    }),
    start({
      name: 'watcher',
      script: 'apps/watcher/dist/main.js',
      ready: { url: `http://127.0.0.1:${healthPorts.watcher}/readyz` },
      env: {
        ...common,
        HEALTH_PORT: String(healthPorts.watcher),
        TRON_NODE_URL: tronNode.url,
        WALLET_XPUB: wallet.walletXpub,
        HOT_WALLET_KEY_FILE: secretFile('hot_wallet_key', secrets.hotWalletKey),
        WATCHER_INTERVAL_MS: '200',
      },
    }),
  ]);
}, 240_000);

afterAll(async () => {
  await Promise.all([...processes.values()].map((p) => p.stop(10_000)));
  await Promise.all([tronNode?.close(), botApi?.close(), exchange?.close()]);
  await redis?.remove();
  if (database) await dropDatabase(serverUrl, database).catch(() => {});
  rmSync(dir, { recursive: true, force: true });
}, 120_000);

describe('no secret in a log line', () => {
  it('the watcher logs each refused pass (500, 401, 429) as one short line', async () => {
    const failed = await waitUntil(
      'the watcher logged refused passes',
      // A 429 is the node's request budget: the watcher logs the wait it honours, once
      // (docs/wallet.md#within-trongrids-budget), not a failed pass.
      async () =>
        jsonLines('watcher').filter(
          (l) => l.msg === 'watcher pass failed' || String(l.msg).startsWith('the TRON node refused'),
        ),
      (lines) =>
        [500, 401, 429].every((status) =>
          lines.some((l) => ((l.err as { status?: number } | undefined)?.status ?? l.status) === status),
        ),
      { timeoutMs: 30_000 },
    );
    for (const { line } of failed) expect(line.length).toBeLessThan(1000);
    expect(tronNode.refused.get(401)).toBeGreaterThan(0);
  });

  it('the bot, refused by the Bot API (401), stops naming the failure without its token', async () => {
    const bot = createFleetProcess(
      {
        name: 'bot',
        script: 'apps/bot/dist/main.js',
        ready: { line: /bot @\w+ started/ },
        env: {
          NODE_ENV: 'production',
          LOG_FORMAT: 'json',
          DATABASE_URL: databaseUrl,
          PUBLIC_URL: 'https://grid.example.org',
          BOT_TOKEN_FILE: secretFile('bot_token', secrets.botToken),
          BOT_API_ROOT: botApi.url,
          HEALTH_PORT: String(await freePort()),
        },
      },
      { root, logDir, echo: false },
    );
    processes.set('bot', bot);
    await expect(bot.start(60_000)).rejects.toThrow(/exited before it was ready/);
    expect(await bot.exited()).toBe(1);
    // The Bot API's answer echoed the request URL, `/bot<token>/getMe`: the line keeps the rest.
    expect(logOf('bot')).toContain("Call to 'getMe' failed! (401: front refused POST /bot[redacted]/getMe");
  });

  it('the worker and the api: an exchange that refuses a user’s keys and echoes them', async () => {
    const telegramId = 5_000_000_000 + Math.floor(Math.random() * 1_000_000);
    const initData = signLaunchData({
      botToken: secrets.botToken,
      user: { telegramId: BigInt(telegramId), username: `logs_${hex(4)}`, firstName: 'Logs', lastName: null },
      startParam: `ref_${rootReferralCode}`,
    });
    const session = expectOk(
      await callApi<{ token: string; user: { uid: number } }>({ url: apiUrl }, null, 'POST', '/auth/login', {
        body: { _auth: initData },
      }),
      'sign-up',
    );
    const user = { token: session.token };
    const created = await fetch(`${sandboxExchangeUrl}/_sandbox/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        apiKey: secrets.exchangeApiKey,
        secret: secrets.exchangeSecret,
        balances: { USDT: '10000' },
      }),
    });
    expect(created.status).toBe(200);
    expectOk(
      await callApi({ url: apiUrl }, user, 'POST', '/profile/api_key', {
        body: { exchange: 'binance', apiKey: secrets.exchangeApiKey, secretKey: secrets.exchangeSecret },
      }),
      'api_key',
    );
    expectOk(
      await callApi({ url: apiUrl }, user, 'POST', '/portfolio/add_coin/add', {
        query: { data_send: 'XRP' },
      }),
      'add coin',
    );
    expectOk(
      await callApi({ url: apiUrl }, user, 'POST', '/portfolio/setting/edit', {
        body: { coin: 'XRP', orderSize: '10', stepPct: '1', stepIncreasePct: '0', maxTrades: 5, dry: false },
      }),
      'settings',
    );
    const db = await createDb({ databaseUrl, poolMax: 1 });
    try {
      const { id } = await db.prisma.user.findFirstOrThrow({ where: { telegramId: BigInt(telegramId) } });
      await fundWallet(db.prisma, { userId: id, deposit: '10', fee: '10', key: `logs:${id}` });
    } finally {
      await db.close();
    }
    expectOk(
      await callApi({ url: apiUrl }, user, 'POST', '/home/start', { query: { coin_name: 'XRP' } }),
      'start',
    );

    // From now on the exchange refuses, echoing the X-MBX-APIKEY header it got.
    exchange.mode = 'refuse';
    await waitUntil(
      'the worker logged a refused reconcile',
      async () => logOf('worker'),
      (log) => log.includes(REFUSAL_MARK) && log.includes('reconcile failed'),
      { timeoutMs: 60_000 },
    );
    const saved = await callApi({ url: apiUrl }, user, 'POST', '/profile/api_key', {
      body: { exchange: 'binance', apiKey: secrets.refusedApiKey, secretKey: secrets.refusedSecret },
    });
    expect(saved.status).toBe(502);
    expect(saved.body).toMatchObject({ code: 'EXCHANGE_UNAVAILABLE' });
    await waitUntil(
      'the api logged the refused key check',
      async () => jsonLines('api').filter((l) => l.msg === 'request failed'),
      (failed) => failed.some((l) => l.line.includes(REFUSAL_MARK)),
      { timeoutMs: 10_000 },
    );

    // /metrics with the operator's token, and a wrong one (refused, logged with its code only).
    const metrics = await fetch(`${apiUrl}/metrics`, {
      headers: { authorization: `Bearer ${secrets.metricsToken}` },
    });
    expect(metrics.status).toBe(200);
    expect((await fetch(`${apiUrl}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(
      401,
    );
  });

  it('the api losing its database: the failure is logged without its password', async () => {
    const before = jsonLines('api').length;
    await dropDatabase(serverUrl, database);
    const answer = await callApi({ url: apiUrl }, null, 'POST', '/auth/login', {
      body: {
        _auth: signLaunchData({
          botToken: secrets.botToken,
          user: { telegramId: 5_100_000_000n, username: 'logs_gone', firstName: 'Gone', lastName: null },
        }),
      },
    });
    expect(answer.status).toBeGreaterThanOrEqual(500);
    await waitUntil(
      'the api logged the lost database',
      async () => jsonLines('api').slice(before),
      (lines) => lines.some((l) => Number(l.level) >= 50),
      { timeoutMs: 30_000 },
    );
  });

  it('no line of any app carries a sentinel, in any form', async () => {
    await Promise.all([...processes.values()].map((p) => p.stop(10_000)));
    const names = ['sandbox', 'api', 'worker', 'watcher', 'bot'];
    for (const name of names) {
      const log = logOf(name);
      // Every app wrote something, the sandbox its request lines.
      expect(log.length, name).toBeGreaterThan(200);
      for (const secret of sentinels) {
        for (const form of formsOf(secret)) {
          expect({ app: name, leaked: log.includes(form) ? form : null }).toEqual({
            app: name,
            leaked: null,
          });
        }
      }
    }
    // The echoed keys were there to leak: the scrubber replaced them.
    expect(logOf('worker')).toContain('[redacted]');
    expect(logOf('api')).toContain('[redacted]');
  });
});
