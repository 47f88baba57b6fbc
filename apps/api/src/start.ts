import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Env } from '@gridbot/config';
import { applyMigrations, createDb } from '@gridbot/db';
import { createSessionTokens, ensureRootAccount, seedDemo } from '@gridbot/services';
import { Redis } from 'ioredis';
import { buildApp } from './app';

/** The demo signs its own launch data: a fresh bot token per start (never a shared constant). */
const demoBotToken = () => `100000001:${randomBytes(24).toString('base64url')}`;

/** Finds the built web app: WEB_DIST, else apps/web/dist above the working directory or this file. */
const findWebDist = (env: Env): string | undefined => {
  if (env.WEB_DIST) return resolve(env.WEB_DIST);
  const starts = [process.cwd(), dirname(new URL(import.meta.url).pathname)];
  for (const start of starts) {
    let dir = start;
    for (let i = 0; i < 6; i += 1) {
      const candidate = join(dir, 'apps/web/dist');
      if (existsSync(join(candidate, 'index.html'))) return candidate;
      dir = dirname(dir);
    }
  }
  return undefined;
};

export type StartOptions = { env: Env; migrate: boolean };

/** Starts the API: database (migrated when asked), root account, demo cast in demo mode, listen. */
export const startApi = async ({ env, migrate }: StartOptions) => {
  const db = await createDb(
    env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { pgliteDir: env.PGLITE_DIR },
  );
  if (migrate) await applyMigrations(db);
  const botToken = env.BOT_TOKEN ?? (env.DEMO ? demoBotToken() : undefined);
  const jwtSecret =
    env.JWT_SECRET ??
    (env.DEMO || env.NODE_ENV !== 'production' ? randomBytes(32).toString('hex') : undefined);
  if (!botToken || !jwtSecret) throw new Error('BOT_TOKEN and JWT_SECRET are required outside demo mode');

  await ensureRootAccount(db.prisma, {
    telegramId: env.ROOT_TELEGRAM_ID,
    username: env.ROOT_USERNAME,
    referralCode: env.ROOT_REFERRAL_CODE,
  });
  const demo = env.DEMO ? await seedDemo(db.prisma) : undefined;
  const redis = env.REDIS_URL
    ? new Redis(env.REDIS_URL, { maxRetriesPerRequest: 2, enableOfflineQueue: true })
    : undefined;
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;

  const app = await buildApp({
    env,
    prisma: db.prisma,
    redis,
    tokens: createSessionTokens(jwtSecret),
    botToken,
    webDist: findWebDist(env),
    demoUser: demo?.user,
    publicUrl,
  });
  app.addHook('onClose', async () => {
    redis?.disconnect();
    await db.close();
  });
  await app.listen({ host: env.HOST, port: env.PORT });
  return { app, publicUrl, demo, webServed: Boolean(app.deps.webDist) };
};
