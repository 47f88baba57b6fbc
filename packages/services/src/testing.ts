import { randomBytes } from 'node:crypto';
import { type Env, loadEnv } from '@gridbot/config';
import type { PrismaClient } from '@gridbot/db';
import { createInProcessQueue, type JobQueue } from '@gridbot/jobs';
import { sessionKeys } from './context/auth-keys';
import type { Cache } from './context/cache';
import {
  type Clock,
  createServiceContext,
  type Logger,
  type ServiceContext,
} from './context/service-context';
import { createSecretBox, type SecretBox } from './crypto/secret-box';
import { createExchangeClients, type ExchangeClients } from './grid/exchange-clients';

const quiet = () => undefined;
/** A logger that writes nothing (tests assert on behaviour, not on log lines). */
export const silentLogger: Logger = {
  debug: quiet,
  info: quiet,
  warn: quiet,
  error: quiet,
  child: () => silentLogger,
};

export type TestContextOptions = {
  prisma: PrismaClient;
  env?: Record<string, string>;
  queue?: JobQueue;
  exchanges?: ExchangeClients;
  secretBox?: SecretBox;
  sandboxUrl?: string;
  /** The sandbox's Bybit and OKX dialects by venue. */
  sandboxDialectUrls?: Readonly<Record<string, string>>;
  instanceId?: string;
  clock?: Clock;
  botToken?: string;
  /** Default: a cache in this process. */
  cache?: Cache;
};

/**
 * A real service context for tests: the given database, an in-process queue (nothing processes
 * it unless the test registers handlers), exchange clients for the sandbox, fresh random keys.
 */
export const createTestContext = (options: TestContextOptions): ServiceContext => {
  const env: Env = loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...options.env });
  const secretBox = options.secretBox ?? createSecretBox([randomBytes(32)]);
  return createServiceContext({
    prisma: options.prisma,
    env,
    log: silentLogger,
    queue: options.queue ?? createInProcessQueue(quiet),
    exchanges:
      options.exchanges ??
      createExchangeClients({
        prisma: options.prisma,
        secretBox,
        ...(options.sandboxUrl ? { sandboxUrl: options.sandboxUrl } : {}),
        ...(options.sandboxDialectUrls ? { sandboxDialectUrls: options.sandboxDialectUrls } : {}),
      }),
    secrets: secretBox,
    auth: {
      botToken: options.botToken ?? `123456789:${randomBytes(24).toString('base64url')}`,
      ...sessionKeys(randomBytes(32).toString('hex')),
    },
    ...(options.instanceId ? { instanceId: options.instanceId } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.cache ? { cache: options.cache } : {}),
  });
};
