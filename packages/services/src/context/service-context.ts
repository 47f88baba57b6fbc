import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Env } from '@gridbot/config';
import type { PrismaClient } from '@gridbot/db';
import type { JobQueue } from '@gridbot/jobs';
import type { SessionTokens } from '../auth/session-token';
import type { SecretBox } from '../crypto/secret-box';
import type { DownloadTokens } from '../export/download-token';
import type { ExchangeClients } from '../grid/exchange-clients';
import { readInstallationSalt } from '../grid/installation';
import { type Cache, createMemoryCache } from './cache';
import { createMemoryMembership, type Membership } from './membership';

/** The time every service reads (tests and replays can hand in their own). */
export type Clock = { now: () => Date };

export const systemClock: Clock = { now: () => new Date() };

type LogFn = { (message: string): void; (fields: object, message?: string): void };

/** The structured logger every service writes to (pino in the apps; the API's request log shares it). */
export type Logger = {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  /** A logger whose every line carries these fields (a job's name and id, a request's id). */
  child: (bindings: Record<string, unknown>) => Logger;
};

/**
 * Sign-in keys: the initData signature key (the bot token), the session JWTs and the download link
 * tokens (docs/security.md#download-links), the last two from JWT_SECRET.
 */
export type AuthKeys = { botToken: string; tokens: SessionTokens; downloads: DownloadTokens };

/**
 * What a process without exchange access or sessions builds (the bot, the watcher): database,
 * environment, logger, clock. Services that need no more take this, so those processes need no
 * secrets key or JWT secret.
 */
export type DataContext = Pick<ServiceContext, 'prisma' | 'env' | 'log' | 'clock'>;

/**
 * Everything a service may use, built once when a process starts and handed to every service call
 * by its transport (route handler, job handler, CLI): `verbNoun(ctx, input)`. No service builds
 * its own dependencies.
 */
export type ServiceContext = {
  prisma: PrismaClient;
  env: Env;
  clock: Clock;
  log: Logger;
  /** Where services enqueue background work (BullMQ distributed, in process embedded). */
  queue: JobQueue;
  /** ccxt clients per exchange account and per public venue. */
  exchanges: ExchangeClients;
  auth: AuthKeys;
  /** Seals and opens exchange API secrets at rest. */
  secrets: SecretBox;
  /** This process, e.g. as the owner of the reconcile leases it holds. */
  instanceId: string;
  /** This installation's salt, part of every clientOrderId (read from the database once). */
  installationSalt: () => Promise<string>;
  /** Read caches (partner figures): Redis when distributed, in process otherwise. */
  cache: Cache;
  /** Which processes of a group are alive (the workers sharing the order streams). */
  membership: Membership;
};

export type ServiceContextParts = Omit<
  ServiceContext,
  'clock' | 'instanceId' | 'installationSalt' | 'cache' | 'membership'
> & {
  clock?: Clock;
  instanceId?: string;
  cache?: Cache;
  membership?: Membership;
};

/** A readable, unique name for this process: host, pid and a random suffix. */
export const newInstanceId = (role: string) =>
  `${role}-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;

export const createServiceContext = (parts: ServiceContextParts): ServiceContext => {
  let salt: Promise<string> | undefined;
  return {
    ...parts,
    clock: parts.clock ?? systemClock,
    cache: parts.cache ?? createMemoryCache(),
    membership: parts.membership ?? createMemoryMembership(),
    instanceId: parts.instanceId ?? newInstanceId('process'),
    installationSalt: () => {
      salt ??= readInstallationSalt(parts.prisma).catch((error: unknown) => {
        salt = undefined;
        throw error;
      });
      return salt;
    },
  };
};
