import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type AppDeps, buildApp } from '@gridbot/api';
import type { User } from '@gridbot/db';
import { createTestDb } from '@gridbot/db/testing';
import { createLogger } from '@gridbot/runtime';
import { ensureRootAccount, launchUrl, signLaunchData } from '@gridbot/services';
import { createTestContext } from '@gridbot/services/testing';

export const WEB_DIST = fileURLToPath(new URL('../../dist', import.meta.url));

export type Stack = Awaited<ReturnType<typeof startStack>>;

type LaunchOptions = {
  languageCode?: string;
  startParam?: string;
  botToken?: string;
  /** Theme parameters in the launch URL (the demo's dark theme by default). */
  theme?: Record<string, string>;
};

let nextTelegramId = 7_000_000_000n;

/**
 * The real API on a fresh test database, listening on a random port and serving the built web app
 * (`apps/web/dist`) on the same origin, as in embedded mode.
 */
export const startStack = async (
  options: {
    demo?: boolean;
    sandboxUrl?: string;
    /** The sandbox's Bybit and OKX dialects by venue. */
    sandboxDialectUrls?: Readonly<Record<string, string>>;
    env?: Record<string, string>;
  } = {},
) => {
  if (!existsSync(`${WEB_DIST}/index.html`)) {
    throw new Error('apps/web/dist is missing: run `npm run build -w @gridbot/web` before the browser tests');
  }
  const db = await createTestDb();
  // With a sandbox exchange, saved API keys are checked and traded there (mode `sandbox`).
  const ctx = createTestContext({
    prisma: db.prisma,
    ...(options.sandboxUrl ? { sandboxUrl: options.sandboxUrl } : {}),
    ...(options.sandboxDialectUrls ? { sandboxDialectUrls: options.sandboxDialectUrls } : {}),
    env: { ...(options.sandboxUrl ? { EXCHANGE_MODE: 'sandbox' } : {}), ...options.env },
  });
  const { botToken } = ctx.auth;
  const root = await ensureRootAccount(ctx, { username: 'root', referralCode: 'root' });

  const createUser = (fields: {
    username: string;
    firstName?: string;
    lastName?: string | null;
  }): Promise<User> =>
    db.prisma.user.create({
      data: {
        telegramId: nextTelegramId++,
        username: fields.username,
        usernameKey: fields.username.toLowerCase(),
        firstName: fields.firstName ?? 'Alex',
        lastName: fields.lastName ?? null,
        referralCode: `c${randomBytes(5).toString('hex')}`,
        sponsorId: root.id,
      },
    });

  const demoUser = options.demo
    ? await createUser({ username: 'demo_trader', firstName: 'Demo', lastName: 'Trader' })
    : undefined;
  const deps: AppDeps = {
    ctx,
    logger: createLogger(ctx.env, 'e2e'),
    webDist: WEB_DIST,
    demoUser,
    publicUrl: 'http://127.0.0.1',
  };
  const app = await buildApp(deps);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // The demo's launch URL must point at this server; handlers read the deps per request.
  deps.publicUrl = baseUrl;

  /** The mini app URL with signed launch parameters in the hash, as Telegram opens it. */
  const launchUrlFor = (
    user: Pick<User, 'telegramId' | 'username' | 'firstName' | 'lastName'>,
    launch: LaunchOptions = {},
    path = '/',
  ) => {
    const initData = signLaunchData({
      botToken: launch.botToken ?? botToken,
      user,
      ...(launch.languageCode ? { languageCode: launch.languageCode } : {}),
      ...(launch.startParam ? { startParam: launch.startParam } : {}),
    });
    const hash = new URLSearchParams(launchUrl(baseUrl, initData, launch.startParam).split('#')[1]);
    if (launch.theme) hash.set('tgWebAppThemeParams', JSON.stringify(launch.theme));
    return `${baseUrl}${path}#${hash.toString()}`;
  };

  /** A Telegram user who is not in the database yet. */
  const stranger = (username: string, firstName = 'Sam') => ({
    telegramId: nextTelegramId++,
    username,
    firstName,
    lastName: null,
  });

  return {
    baseUrl,
    ctx,
    prisma: db.prisma,
    root,
    demoUser,
    createUser,
    stranger,
    launchUrlFor,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
};
