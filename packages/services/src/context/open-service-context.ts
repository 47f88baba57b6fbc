import { resolve } from 'node:path';
import type { Env } from '@gridbot/config';
import type { PrismaClient } from '@gridbot/db';
import { type ConnectionLimit, createMemoryBudgetStore, createVenueBudget } from '@gridbot/exchange';
import type { JobQueue } from '@gridbot/jobs';
import { Redis } from 'ioredis';
import { loadSecretKeys } from '../crypto/load-secret-keys';
import { createSecretBox } from '../crypto/secret-box';
import { createExchangeClients } from '../grid/exchange-clients';
import { createRedisConnectionLimiter } from '../grid/redis-connection-limiter';
import { createRedisBudgetStore } from '../grid/redis-venue-budget';
import { createBudgetEventSink } from '../grid/venue-budget-events';
import { resolveAuthKeys } from './auth-keys';
import { createRedisCache } from './cache';
import { createRedisMembership } from './membership';
import {
  type AuthKeys,
  type Clock,
  createServiceContext,
  type Logger,
  newInstanceId,
  type ServiceContext,
} from './service-context';

export type OpenServiceContextOptions = {
  env: Env;
  prisma: PrismaClient;
  log: Logger;
  queue: JobQueue;
  /** What this process is (api, worker, standalone): part of its instance id. */
  role: string;
  /** Base URL of the sandbox exchange for accounts in sandbox mode (default SANDBOX_EXCHANGE_URL). */
  sandboxUrl?: string | undefined;
  /** The sandbox's other dialects by venue (default SANDBOX_BYBIT_URL, SANDBOX_OKX_URL). */
  sandboxDialectUrls?: Readonly<Record<string, string>> | undefined;
  /** Sign-in keys when the caller already holds them (default: from the environment). */
  auth?: AuthKeys;
  /** false: the process signs nobody in (the worker), so it needs no BOT_TOKEN / JWT_SECRET. */
  signsIn?: boolean;
  clock?: Clock;
};

/**
 * The one way a process builds its service context: secrets key (SECRETS_KEY, its file, or the
 * demo's generated key next to the embedded database), exchange clients (with one request budget
 * per venue and egress IP, shared through Redis when REDIS_URL is set), sign-in keys.
 */
export const openServiceContext = (
  options: OpenServiceContextOptions,
): { ctx: ServiceContext; close: () => Promise<void> } => {
  const { env } = options;
  const secrets = createSecretBox(loadSecretKeys(env, resolve(env.PGLITE_DIR, '..', 'secrets.key')));
  const redis = env.REDIS_URL ? new Redis(env.REDIS_URL, { maxRetriesPerRequest: 2 }) : undefined;
  // One budget per venue and egress IP: in Redis for every process of the installation, in memory
  // for the embedded process (docs/grid.md#request-budget).
  const budget = createVenueBudget({
    store: redis ? createRedisBudgetStore(redis, 'gridbot:') : createMemoryBudgetStore(),
    ip: env.EGRESS_IP ?? env.EGRESS_BIND_ADDRESS ?? 'default',
    onEvent: createBudgetEventSink({ prisma: options.prisma, log: options.log }),
  });
  const exchanges = createExchangeClients({
    prisma: options.prisma,
    secretBox: secrets,
    sandboxUrl: options.sandboxUrl ?? env.SANDBOX_EXCHANGE_URL,
    sandboxDialectUrls: options.sandboxDialectUrls ?? {
      ...(env.SANDBOX_BYBIT_URL ? { bybit: env.SANDBOX_BYBIT_URL } : {}),
      ...(env.SANDBOX_OKX_URL ? { okx: env.SANDBOX_OKX_URL } : {}),
    },
    budget,
    localAddress: env.EGRESS_BIND_ADDRESS,
    ...(redis
      ? {
          // Every worker's connection attempts count against the one IP's limit.
          connectionLimiterFor: (url: string, limit: ConnectionLimit) =>
            createRedisConnectionLimiter(redis, 'gridbot:', new URL(url).host, limit),
        }
      : {}),
  });
  const ctx = createServiceContext({
    prisma: options.prisma,
    env,
    log: options.log,
    queue: options.queue,
    exchanges,
    secrets,
    auth: options.auth ?? resolveAuthKeys(env, options.signsIn ?? true),
    instanceId: newInstanceId(options.role),
    ...(redis
      ? { cache: createRedisCache(redis, 'gridbot:'), membership: createRedisMembership(redis, 'gridbot:') }
      : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return {
    ctx,
    close: async () => {
      await exchanges.closeUserDataStreams();
      redis?.disconnect();
    },
  };
};
