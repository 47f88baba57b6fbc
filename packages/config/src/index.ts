import { z } from 'zod';
import { ConfigError } from './config-error';
import { resolveSecretFiles } from './secret-files';

const ZBool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const ZOptionalUrl = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/**
 * Every environment variable of every app, parsed once. An invalid value stops the process with a
 * message naming the variable (ARCHITECTURE.md).
 */
export const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /**
   * Host the API listens on (and, embedded, the web app on the same port). Default 0.0.0.0, but
   * 127.0.0.1 in demo mode: the demo hands a signed-in session to anyone who can reach it.
   */
  HOST: z.string().optional(),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  /**
   * Public URL of the mini app (printed at start, used in demo launch URLs and bot menus). Outside
   * demo mode it must be https:// — Telegram opens mini apps over HTTPS only — unless it names this
   * machine (localhost, 127.0.0.1, [::1]: a local run no Telegram client reaches anyway).
   */
  PUBLIC_URL: ZOptionalUrl.pipe(z.url().optional()),
  /** PostgreSQL; when absent the embedded PGlite database in PGLITE_DIR is used. */
  DATABASE_URL: ZOptionalUrl.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
  ),
  PGLITE_DIR: z.string().default('.data/pglite'),
  /** Redis; when absent rate limits and jobs live in process (embedded mode only). */
  REDIS_URL: ZOptionalUrl.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .optional(),
  ),
  /** Demo mode: seeds demo accounts and serves GET /demo/launch-data. Never in production. */
  DEMO: ZBool.default(false),
  /** Telegram bot token: the key of the initData signature. Required outside demo mode. */
  BOT_TOKEN: z
    .string()
    .regex(/^\d+:[A-Za-z0-9_-]{20,}$/, 'must look like 123456:ABC…')
    .optional(),
  /**
   * Root of the Telegram Bot API the bot talks to (default https://api.telegram.org): a local Bot
   * API server, or the sandbox's stand-in (embedded mode starts one itself).
   */
  BOT_API_ROOT: ZOptionalUrl.pipe(z.url().optional()),
  /** How often the bot looks for notifications to send, ms (docs/notifications.md#delivery). */
  BOT_NOTIFY_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  BOT_USERNAME: z
    .string()
    .regex(/^[A-Za-z0-9_]{5,32}$/)
    .default('gridbot_demo_bot'),
  /** Secret for the bearer JWTs (≥ 32 chars). Required outside demo mode. */
  JWT_SECRET: z.string().min(32).optional(),
  /** Max age of initData `auth_date`, seconds (docs/security.md: default 24 h). */
  INIT_DATA_MAX_AGE_S: z.coerce.number().int().min(60).max(604_800).default(86_400),
  /**
   * Recipient lookups and transfers naming a UID nobody has, per user and 24 hours; past it both
   * are refused, for existing UIDs too (docs/wallet.md#internal-transfer).
   */
  RECIPIENT_MISSES_PER_DAY: z.coerce.number().int().min(1).max(10_000).default(20),
  /** Origin of the web app when it is served elsewhere; CORS allows only this origin. */
  WEB_ORIGIN: ZOptionalUrl.pipe(z.url().optional()),
  /** Folder of the built web app to serve (embedded). */
  WEB_DIST: z.string().optional(),
  /**
   * Reverse proxies in front of the API (X-Forwarded-For hops to trust). 0: none — the client
   * address is the socket's, so nobody can pick the IP their rate limit is counted under.
   */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(5).default(0),
  /**
   * Largest request body (Fastify's bodyLimit): the biggest real one, a settings edit or API keys,
   * is well under 1 KiB, so 64 KiB refuses floods early with 413 (docs/security.md#hostile-input).
   */
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10_485_760).default(65_536),
  /**
   * The API's HTTP timeouts (docs/security.md#hostile-input): a request's headers must arrive
   * within HTTP_HEADERS_TIMEOUT_MS and the whole request, body included, within
   * HTTP_REQUEST_TIMEOUT_MS, else the connection is answered 408 and closed (a sign-in body that
   * never comes holds nothing open); an idle keep-alive connection closes after
   * HTTP_KEEP_ALIVE_TIMEOUT_MS, longer than the TLS front keeps idle connections to the API.
   */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(72_000),
  /**
   * The OpenAPI document and Swagger UI at /docs (docs/operations.md#api-docs). Default: on in demo
   * mode, off otherwise — a public installation does not publish its API map unless asked to.
   */
  API_DOCS: ZBool.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `json` lines, or `pretty` for a person (default: pretty on a terminal when pino-pretty is installed). */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  SUPPORT_URL: z.url().default('https://t.me/gridbot_support'),
  /**
   * Master key(s) for exchange secrets at rest: comma-separated 32-byte keys (hex or base64), the
   * first seals, all open. SECRETS_KEY_FILE names a file holding the same. Required outside demo
   * mode; the demo keeps a generated one in .data/secrets.key.
   */
  SECRETS_KEY: z.string().optional(),
  SECRETS_KEY_FILE: z.string().optional(),
  /** Base URL of the sandbox exchange for accounts in sandbox mode (embedded: the in-process one). */
  SANDBOX_EXCHANGE_URL: ZOptionalUrl.pipe(z.url().optional()),
  /** Base URLs of the sandbox's Bybit v5 and OKX v5 dialects (embedded: the in-process ones). */
  SANDBOX_BYBIT_URL: ZOptionalUrl.pipe(z.url().optional()),
  SANDBOX_OKX_URL: ZOptionalUrl.pipe(z.url().optional()),
  SANDBOX_PORT: z.coerce.number().int().min(0).max(65_535).default(3100),
  /** The embedded sandbox TRON node's port (default SANDBOX_PORT + 1, or any free one when that is 0). */
  SANDBOX_TRON_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  /**
   * Where the API keys users save are checked and traded: `live` (the real exchange), `testnet`
   * (Binance's spot testnet) or `sandbox` (SANDBOX_EXCHANGE_URL). Default: sandbox in demo mode,
   * live otherwise.
   */
  EXCHANGE_MODE: z.enum(['live', 'testnet', 'sandbox']).optional(),
  /**
   * The public IP address(es) this installation's exchange requests leave from (comma-separated):
   * what users add to their Binance key's trusted IPs (a key without an IP restriction trades for
   * 30 days only; docs/security.md#exchange-keys). Every worker and API host's egress belongs here.
   * Unset: discovered (EGRESS_IP_DISCOVERY_URL, or the sandbox's /_sandbox/whoami in sandbox mode).
   */
  EGRESS_IPS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((ip) => ip.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.union([z.ipv4(), z.ipv6()]), { error: 'IP addresses separated by commas' })),
  /**
   * Without EGRESS_IPS, a URL answering the caller's public IP as plain text, asked once an hour
   * at most (default https://api.ipify.org); empty: never ask (the API key screen then shows none).
   */
  EGRESS_IP_DISCOVERY_URL: z.union([z.literal(''), z.url()]).default('https://api.ipify.org'),
  /**
   * How long a last price read from the exchange for the portfolio and deal screens serves other
   * requests of the process (ms; 0: every request asks the exchange). Concurrent requests for the
   * same prices always share one call.
   */
  LAST_PRICE_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** Worker: parallel reconciles per process, and the schedule of price scans and sweeps. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  SCAN_INTERVAL_MS: z.coerce.number().int().min(200).max(60_000).default(2000),
  SWEEP_INTERVAL_MS: z.coerce.number().int().min(1000).max(3_600_000).default(30_000),
  /**
   * A venue's scan reads each symbol's traded range (1 s klines, weight 2 each) while it has at most
   * this many active symbols; above, the ticker range only (docs/grid.md#triggers, weight budget).
   */
  SCAN_RANGE_MAX_SYMBOLS: z.coerce.number().int().min(0).max(1000).default(30),
  /** Range requests in flight at once per venue scan. */
  SCAN_RANGE_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  /**
   * This process's egress IP: the owner of the venue request budget it spends (Binance counts
   * weight per IP; docs/grid.md#request-budget). Every process leaving through one public IP must
   * name the same one. EGRESS_BIND_ADDRESS: the local address its exchange requests leave from
   * (a host with several IPs), and the default EGRESS_IP.
   */
  EGRESS_IP: z.string().trim().min(1).max(64).optional(),
  EGRESS_BIND_ADDRESS: z.union([z.ipv4(), z.ipv6()]).optional(),
  /**
   * Wallet (docs/wallet.md). WALLET_XPUB: the operator's extended public key of m/44'/195'/0'
   * (deposit addresses are its children 0/i; no private key on the api or watcher hosts). The demo
   * derives one from a fixed test phrase. TRON_NODE_URL: the full node / TronGrid HTTP API the
   * watcher reads and broadcasts through (embedded: the sandbox's TRON node).
   */
  WALLET_XPUB: z
    .string()
    .regex(/^[xt]pub[1-9A-HJ-NP-Za-km-z]{100,112}$/, 'an extended public key (xpub…)')
    .optional(),
  TRON_NODE_URL: ZOptionalUrl.pipe(z.url().optional()),
  /** TronGrid API key sent as TRON-PRO-API-KEY (optional). */
  TRON_API_KEY: z.string().optional(),
  /** USDT TRC20 contract the watcher credits (mainnet's by default; the sandbox node uses it too). */
  USDT_CONTRACT: z
    .string()
    .regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/)
    .default('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
  /** File holding the hot wallet's private key (hex) the watcher signs withdrawals with. */
  HOT_WALLET_KEY_FILE: z.string().optional(),
  /** Network fee charged per withdrawal, USDT (part of the amount). */
  WITHDRAW_FEE_USDT: z
    .string()
    .regex(/^\d+(\.\d{1,6})?$/)
    .default('1'),
  /** Withdrawals up to this amount (USDT) are approved automatically; above, an operator decides. */
  WITHDRAW_AUTO_APPROVE_USDT: z
    .string()
    .regex(/^\d+(\.\d{1,6})?$/)
    .default('1000'),
  /**
   * A new or changed withdrawal address (and a new exchange deposit address) cannot be used for
   * this many hours; a user lifts their own freeze this long after it (docs/wallet.md#address-lock).
   */
  WITHDRAW_ADDRESS_LOCK_HOURS: z.coerce.number().min(0).max(720).default(24),
  /**
   * An approved withdrawal waits this many seconds before it is signed, so that the owner's
   * "freeze" can still stop it (docs/wallet.md#release). Tests and the demo may set it low.
   */
  WITHDRAW_RELEASE_DELAY_S: z.coerce.number().int().min(0).max(86_400).default(120),
  /**
   * The operators' Telegram chat (a group's id is negative): withdrawals waiting for a decision
   * and system alerts are posted there by the bot (docs/operations.md#operators-chat). Unset: the
   * alerts are kept (status skipped) and operators decide with the CLI only.
   */
  OPERATOR_CHAT_ID: z
    .string()
    .regex(/^-?\d{1,20}$/, 'a Telegram chat id (digits, negative for a group)')
    .optional(),
  /**
   * Telegram user ids (comma-separated) allowed to press the operators' buttons; anyone else who
   * presses one is refused and nothing changes.
   */
  OPERATOR_TELEGRAM_IDS: z
    .string()
    .regex(/^\s*(\d{1,20}\s*(,\s*\d{1,20}\s*)*)?$/, 'Telegram user ids separated by commas')
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean)
        .map((id) => BigInt(id)),
    ),
  /** Watcher: how often it polls the node for new blocks and pending withdrawals. */
  WATCHER_INTERVAL_MS: z.coerce.number().int().min(200).max(600_000).default(3000),
  /**
   * Watcher: blocks read per phase and pass while it catches up (after downtime, or started far
   * behind): each is one request to the node, so a long backlog is read in bounded batches.
   */
  WATCHER_BATCH_BLOCKS: z.coerce.number().int().min(1).max(1000).default(100),
  /**
   * The hot wallet (docs/operations.md#hot-wallet): the watcher reads its USDT, TRX, energy and
   * bandwidth at most this often (and right before signing withdrawals), and alerts the operators'
   * chat when USDT or TRX falls below these amounts.
   */
  HOT_WALLET_CHECK_MS: z.coerce.number().int().min(1000).max(3_600_000).default(600_000),
  HOT_WALLET_MIN_USDT: z
    .string()
    .regex(/^\d+(\.\d{1,6})?$/)
    .default('1000'),
  HOT_WALLET_MIN_TRX: z
    .string()
    .regex(/^\d+(\.\d{1,6})?$/)
    .default('200'),
  /**
   * A USDT transfer's fee limit: the node's energy estimate × the chain's energy price, plus this
   * margin (percent), at most TRON_FEE_LIMIT_MAX_TRX (docs/wallet.md#network-fees).
   */
  TRON_FEE_LIMIT_MARGIN_PCT: z.coerce.number().int().min(0).max(200).default(20),
  TRON_FEE_LIMIT_MAX_TRX: z
    .string()
    .regex(/^\d+(\.\d{1,6})?$/)
    .default('100'),
  /**
   * Sweeps (docs/wallet.md#sweeps): the file holding the operator's mnemonic or the xprv of
   * m/44'/195'/0' that the deposit addresses come from. Only the sweeper (in the watcher process)
   * opens it; no other process reads it. Unset: no sweeper (the demo uses its test phrase).
   */
  SWEEP_SEED_FILE: z.string().optional(),
  /** Deposit addresses holding at least this much credited USDT are swept. */
  SWEEP_MIN_USDT: z
    .string()
    .regex(/^\d+(\.\d{1,6})?$/)
    .default('100'),
  /** Once the hot wallet holds this much USDT, sweeps go to SWEEP_COLD_ADDRESS instead (when set). */
  SWEEP_HOT_CEILING_USDT: z
    .string()
    .regex(/^\d+(\.\d{1,6})?$/)
    .default('100000'),
  SWEEP_COLD_ADDRESS: z
    .string()
    .regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'a TRON address (T…)')
    .optional(),
  /** How often the sweeper queues a sweep of every eligible address by itself (0: only on request). */
  SWEEP_AUTO_INTERVAL_MS: z.coerce.number().int().min(0).max(604_800_000).default(3_600_000),
  /**
   * Port of the small HTTP server of the worker, watcher, bot and sandbox processes serving
   * /healthz, /readyz and /metrics (docs/operations.md#ports). Unset: the app's own default (worker
   * 9101, watcher 9102, bot 9103, sandbox 9104); `off`: no server. The API serves the same paths on
   * PORT, and so does the embedded process for all its apps.
   */
  HEALTH_PORT: z
    .union(
      [
        z.literal('off'),
        z.literal('').transform(() => undefined),
        z.coerce.number().int().min(0).max(65_535),
      ],
      {
        error: 'a port (0-65535), or off for no health server',
      },
    )
    .optional(),
  /** Bearer token /metrics asks for when set (unset: /metrics is open, like /healthz). */
  METRICS_TOKEN: z.string().min(16).optional(),
  /**
   * On SIGTERM, /readyz answers 503 this long before the API stops accepting connections, so a
   * load balancer polling it stops sending traffic first (docs/operations.md#shutdown). Default 0.
   */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(15_000).default(0),
  /** Root account: the first referral code of a fresh installation. */
  ROOT_TELEGRAM_ID: z.coerce.bigint().optional(),
  ROOT_USERNAME: z.string().default('root'),
  ROOT_REFERRAL_CODE: z
    .string()
    .regex(/^[A-Za-z0-9_-]{4,32}$/)
    .default('root'),
});

type ParsedEnv = z.infer<typeof ZEnv>;
export type Env = Omit<ParsedEnv, 'HOST' | 'EXCHANGE_MODE' | 'API_DOCS'> & {
  HOST: string;
  EXCHANGE_MODE: NonNullable<ParsedEnv['EXCHANGE_MODE']>;
  API_DOCS: boolean;
};

export { FILE_VARIABLES, resolveSecretFiles } from './secret-files';
export { ConfigError };

/** Secrets an app cannot run without outside demo mode (SECRETS_KEY: it or SECRETS_KEY_FILE). */
export type RequiredSecret = 'BOT_TOKEN' | 'JWT_SECRET' | 'ROOT_REFERRAL_CODE' | 'SECRETS_KEY';

export type LoadEnvOptions = {
  /** Secrets this app needs (default: the API's sign-in secrets and the first invite code). */
  require?: readonly RequiredSecret[];
};

const API_SECRETS: readonly RequiredSecret[] = ['BOT_TOKEN', 'JWT_SECRET', 'ROOT_REFERRAL_CODE'];

/**
 * Parses `source` (default process.env); throws ConfigError naming every bad variable. Outside
 * demo mode every secret that is given must be the operator's own (no placeholder of
 * .env.example, no guessable value: docs/security.md#secrets), and the secrets the app needs are
 * required unless NODE_ENV=test (tests make their own).
 */
export const loadEnv = (
  given: Record<string, string | undefined> = process.env,
  options: LoadEnvOptions = {},
): Env => {
  // docker secrets: BOT_TOKEN_FILE and the like are read first (docs/security.md#secrets).
  const source = resolveSecretFiles(given);
  const result = ZEnv.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  const parsed = result.data;
  const env: Env = {
    ...parsed,
    HOST: parsed.HOST ?? (parsed.DEMO ? '127.0.0.1' : '0.0.0.0'),
    EXCHANGE_MODE: parsed.EXCHANGE_MODE ?? (parsed.DEMO ? 'sandbox' : 'live'),
    API_DOCS: parsed.API_DOCS ?? parsed.DEMO,
  };
  const problems: string[] = [];
  if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
    problems.push('HTTP_HEADERS_TIMEOUT_MS: must not be longer than HTTP_REQUEST_TIMEOUT_MS');
  }
  const insecure = insecurePublicUrl(env);
  if (insecure) problems.push(insecure);
  if (env.DEMO && env.BOT_TOKEN) {
    // Demo mode hands out signed launch data: never with a real bot's key.
    problems.push('DEMO: demo mode signs its own launch data and cannot run with a real BOT_TOKEN');
  }
  if (!env.DEMO) {
    const required = options.require ?? API_SECRETS;
    problems.push(...secretProblems(env, source, required));
    if (env.NODE_ENV !== 'test') {
      for (const name of required) {
        const given = name === 'SECRETS_KEY' ? env.SECRETS_KEY || env.SECRETS_KEY_FILE : source[name];
        if (!given)
          problems.push(
            `${name}: required outside demo mode${name === 'SECRETS_KEY' ? ' (or SECRETS_KEY_FILE)' : ''}`,
          );
      }
    }
  }
  if (problems.length > 0) {
    throw new ConfigError(`Invalid environment:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  return env;
};

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * PUBLIC_URL over plain http outside demo mode and tests: Telegram opens mini apps over HTTPS only,
 * and a session token must not cross the internet in clear (docs/deploy.md#tls). A loopback URL is
 * a local run (the fleet), which no Telegram client reaches anyway.
 */
const insecurePublicUrl = (env: Env): string | null => {
  if (!env.PUBLIC_URL || env.DEMO || env.NODE_ENV === 'test') return null;
  const url = new URL(env.PUBLIC_URL);
  if (url.protocol === 'https:' || LOOPBACK_HOSTS.has(url.hostname)) return null;
  return `PUBLIC_URL: must be https:// outside demo mode (Telegram opens mini apps over HTTPS only; docs/deploy.md#tls), not ${url.protocol}//`;
};

/** The given secrets that are placeholders or guessable, one line each. */
const secretProblems = (
  env: Env,
  source: Record<string, string | undefined>,
  required: readonly RequiredSecret[],
): string[] => {
  const problems: string[] = [];
  const check = (name: string, value: string | undefined, minBits: number) => {
    const problem = value === undefined ? null : weakSecretProblem(value, minBits);
    if (problem) problems.push(`${name}: ${problem}`);
  };
  check('BOT_TOKEN', env.BOT_TOKEN?.slice(env.BOT_TOKEN.indexOf(':') + 1), 96);
  check('JWT_SECRET', env.JWT_SECRET, 128);
  check('SECRETS_KEY', env.SECRETS_KEY, 128);
  check('METRICS_TOKEN', env.METRICS_TOKEN, 64);
  const rootCodeNeeded = env.NODE_ENV !== 'test' && required.includes('ROOT_REFERRAL_CODE');
  if (source.ROOT_REFERRAL_CODE !== undefined || rootCodeNeeded) {
    if (env.ROOT_REFERRAL_CODE.toLowerCase() === 'root') {
      problems.push(
        'ROOT_REFERRAL_CODE: set your own first invite code (not "root", which anyone can guess)',
      );
    } else {
      check('ROOT_REFERRAL_CODE', env.ROOT_REFERRAL_CODE, 40);
    }
  }
  return problems;
};

/** Words of the placeholders in .env.example and in common samples. */
const PLACEHOLDER = /replace|change[-_ ]?me|your[-_]|example|placeholder|secret[-_]?code|xxxx/i;

/**
 * Why a secret is not good enough, or null: a placeholder, or less than `minBits` of estimated
 * entropy (length × Shannon entropy of its characters — repeated or patterned values score low).
 */
export const weakSecretProblem = (value: string, minBits: number): string | null => {
  if (PLACEHOLDER.test(value)) return 'still the placeholder from .env.example: set your own random value';
  const bits = estimatedEntropyBits(value);
  if (bits < minBits) {
    return `too easy to guess (about ${Math.round(bits)} bits; use at least ${minBits} bits of random, e.g. \`openssl rand -hex 32\`)`;
  }
  return null;
};

export const estimatedEntropyBits = (value: string): number => {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let perChar = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    perChar -= p * Math.log2(p);
  }
  return perChar * value.length;
};

/**
 * Demo mode listening beyond loopback: a warning for the operator (anyone who can reach the port
 * gets a signed-in demo session), or null.
 */
export const demoExposureWarning = (env: Env): string | null => {
  if (!env.DEMO) return null;
  if (['127.0.0.1', '::1', 'localhost'].includes(env.HOST)) return null;
  return `demo mode listens on ${env.HOST}: anyone who can reach port ${env.PORT} is signed in as the demo user`;
};
