import { z } from 'zod';

const ZBool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const ZOptionalUrl = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/**
 * Every environment variable of every app, parsed once. An invalid value stops the process with a
 * message naming the variable (DESIGN §2).
 */
export const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Host and port of the API (and, embedded, of the web app on the same port). */
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  /** Public URL of the mini app (printed at start, used in demo launch URLs and bot menus). */
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
  BOT_USERNAME: z
    .string()
    .regex(/^[A-Za-z0-9_]{5,32}$/)
    .default('gridbot_demo_bot'),
  /** Secret for the bearer JWTs (≥ 32 chars). Required outside demo mode. */
  JWT_SECRET: z.string().min(32).optional(),
  /** Max age of initData `auth_date`, seconds (DESIGN §7: default 24 h). */
  INIT_DATA_MAX_AGE_S: z.coerce.number().int().min(60).max(604_800).default(86_400),
  /** Origin of the web app when it is served elsewhere; CORS allows only this origin. */
  WEB_ORIGIN: ZOptionalUrl.pipe(z.url().optional()),
  /** Folder of the built web app to serve (embedded). */
  WEB_DIST: z.string().optional(),
  /**
   * Reverse proxies in front of the API (X-Forwarded-For hops to trust). 0: none — the client
   * address is the socket's, so nobody can pick the IP their rate limit is counted under.
   */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(5).default(0),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10_485_760).default(65_536),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
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
  SANDBOX_PORT: z.coerce.number().int().min(0).max(65_535).default(3100),
  /** Worker: parallel reconciles per process, and the schedule of price scans and sweeps. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  SCAN_INTERVAL_MS: z.coerce.number().int().min(200).max(60_000).default(2000),
  SWEEP_INTERVAL_MS: z.coerce.number().int().min(1000).max(3_600_000).default(30_000),
  /** Root account: the first referral code of a fresh installation. */
  ROOT_TELEGRAM_ID: z.coerce.bigint().optional(),
  ROOT_USERNAME: z.string().default('root'),
  ROOT_REFERRAL_CODE: z
    .string()
    .regex(/^[A-Za-z0-9_-]{4,32}$/)
    .default('root'),
});

export type Env = z.infer<typeof ZEnv>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses `source` (default process.env); throws ConfigError naming every bad variable. */
export const loadEnv = (source: Record<string, string | undefined> = process.env): Env => {
  const result = ZEnv.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  const env = result.data;
  const problems: string[] = [];
  if (env.DEMO && env.BOT_TOKEN) {
    // Demo mode hands out signed launch data: never with a real bot's key.
    problems.push('DEMO: demo mode signs its own launch data and cannot run with a real BOT_TOKEN');
  }
  if (!env.DEMO && env.NODE_ENV === 'production') {
    for (const name of ['BOT_TOKEN', 'JWT_SECRET'] as const) {
      if (!env[name]) problems.push(`${name}: required in production`);
    }
    // The first invite code must be the operator's secret, not the well-known default.
    if (!source.ROOT_REFERRAL_CODE || source.ROOT_REFERRAL_CODE === 'root') {
      problems.push('ROOT_REFERRAL_CODE: set your own first invite code in production (not "root")');
    }
  }
  if (problems.length > 0) {
    throw new ConfigError(`Invalid environment:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  return env;
};
