import { randomBytes } from 'node:crypto';
import type { PrismaClient, User } from '@gridbot/db';
import { createTestDb } from '@gridbot/db/testing';
import { createLogger, type Logger } from '@gridbot/runtime';
import { type SandboxTronHandle, startSandboxTron } from '@gridbot/sandbox';
import {
  type Clock,
  createRedisCache,
  ensureRootAccount,
  fundWallet,
  signLaunchData,
} from '@gridbot/services';
import { createTestContext } from '@gridbot/services/testing';
import { Redis } from 'ioredis';
import { buildApp } from '../../src/app';

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * A real API on a fresh database (PGlite, or PostgreSQL when DATABASE_URL is set) and, when
 * REDIS_URL is set, real Redis for rate limits under a key prefix of its own.
 */
export const createTestApp = async (
  overrides: Record<string, string> = {},
  options: {
    demo?: boolean;
    webDist?: string;
    /** The sandbox exchange's URL, for API keys checked and traded in mode `sandbox`. */
    sandboxUrl?: string;
    /** The sandbox's Bybit and OKX dialects by venue. */
    sandboxDialectUrls?: Readonly<Record<string, string>>;
    /** The app's logger (default: the test environment's, silent). */
    logger?: Logger;
    /** The services' clock (default the system's): tests move it to pass a lock or a day. */
    clock?: Clock;
    /** Extra routes registered before the app is ready (tests that need a route of their own). */
    routes?: (app: Awaited<ReturnType<typeof buildApp>>) => void;
  } = {},
) => {
  const db = await createTestDb();
  // A wallet installation asks a TRON node whether withdrawal addresses are contracts
  // (docs/wallet.md#refused-addresses): the sandbox's, without a block timer, unless one is named.
  const tron: SandboxTronHandle | undefined =
    overrides.WALLET_XPUB && !('TRON_NODE_URL' in overrides)
      ? await startSandboxTron({ blockIntervalMs: 0 })
      : undefined;
  if (tron) overrides = { ...overrides, TRON_NODE_URL: tron.url };
  const redis = process.env.REDIS_URL ? new Redis(process.env.REDIS_URL) : undefined;
  const redisPrefix = `test:${randomBytes(6).toString('hex')}:`;
  const ctx = createTestContext({
    prisma: db.prisma,
    // Tests read the OpenAPI document (off by default outside demo mode: docs/operations.md#api-docs).
    env: { API_DOCS: '1', ...(options.sandboxUrl ? { EXCHANGE_MODE: 'sandbox' } : {}), ...overrides },
    ...(options.sandboxUrl ? { sandboxUrl: options.sandboxUrl } : {}),
    ...(options.sandboxDialectUrls ? { sandboxDialectUrls: options.sandboxDialectUrls } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(redis ? { cache: createRedisCache(redis, redisPrefix) } : {}),
  });
  const { botToken, tokens } = ctx.auth;
  const root = await ensureRootAccount(ctx, { username: 'root', referralCode: 'root' });
  const demoUser = options.demo
    ? await createUser(db.prisma, { sponsorId: root.id, username: 'demo_trader' })
    : undefined;
  const app = await buildApp({
    ctx,
    logger: options.logger ?? createLogger(ctx.env, 'api-test'),
    redis,
    redisPrefix,
    demoUser,
    webDist: options.webDist,
    publicUrl: 'http://localhost:3000',
  });
  options.routes?.(app);
  await app.ready();

  let nextTelegramId = 5_000_000_000n;
  return {
    app,
    ctx,
    prisma: db.prisma,
    botToken,
    tokens,
    root,
    /** initData for any Telegram user, signed with this app's bot token. */
    launchData: (
      user: { telegramId: bigint; username?: string | null; firstName?: string; languageCode?: string },
      extra: { startParam?: string; authDate?: Date; token?: string } = {},
    ) =>
      signLaunchData({
        botToken: extra.token ?? botToken,
        user: {
          telegramId: user.telegramId,
          username: user.username ?? '',
          firstName: user.firstName ?? 'Test',
          lastName: null,
        },
        ...(user.languageCode ? { languageCode: user.languageCode } : {}),
        ...(extra.startParam ? { startParam: extra.startParam } : {}),
        ...(extra.authDate ? { authDate: extra.authDate } : {}),
      }),
    /**
     * A registered user (sponsor = root unless given). `feeBalance` (USDT) funds the wallet's fee
     * balance, which the engine needs > 0 to buy (docs/fees.md#fee-balance).
     */
    createUser: async (fields: { username: string; sponsorId?: number; feeBalance?: string }) => {
      const user = await createUser(db.prisma, {
        sponsorId: fields.sponsorId ?? root.id,
        username: fields.username,
        telegramId: nextTelegramId++,
      });
      const fee = fields.feeBalance;
      if (fee) await fundWallet(db.prisma, { userId: user.id, deposit: fee, fee, key: `test:${user.id}` });
      return user;
    },
    /** A bearer header for a user, as sign-in would issue. */
    authHeader: async (user: User) => ({
      authorization: `Bearer ${(await tokens.issue({ userId: user.id, uid: user.uid })).token}`,
    }),
    /** The sandbox TRON node the wallet asks (when the wallet is configured). */
    tron,
    close: async () => {
      await app.close();
      await tron?.close();
      if (redis) {
        const keys = await redis.keys(`${redisPrefix}*`);
        if (keys.length > 0) await redis.del(...keys);
        redis.disconnect();
      }
      await db.close();
    },
  };
};

let fallbackTelegramId = 9_000_000_000n;

const createUser = (
  prisma: PrismaClient,
  fields: { sponsorId: number; username: string; telegramId?: bigint },
): Promise<User> =>
  prisma.user.create({
    data: {
      telegramId: fields.telegramId ?? fallbackTelegramId++,
      username: fields.username,
      usernameKey: fields.username.toLowerCase(),
      firstName: 'Test',
      referralCode: `c${randomBytes(5).toString('hex')}`,
      sponsorId: fields.sponsorId,
    },
  });
