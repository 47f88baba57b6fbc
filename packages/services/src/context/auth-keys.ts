import { randomBytes } from 'node:crypto';
import type { Env } from '@gridbot/config';
import { createSessionTokens } from '../auth/session-token';
import { createDownloadTokens } from '../export/download-token';
import type { AuthKeys } from './service-context';

/** What JWT_SECRET signs: sessions, and download links with a key of their own derived from it. */
export const sessionKeys = (jwtSecret: string): Omit<AuthKeys, 'botToken'> => ({
  tokens: createSessionTokens(jwtSecret),
  downloads: createDownloadTokens(jwtSecret),
});

/** The demo signs its own launch data: a fresh bot token per start (never a shared constant). */
const demoBotToken = () => `100000001:${randomBytes(24).toString('base64url')}`;

/**
 * The sign-in keys of a process: BOT_TOKEN and JWT_SECRET from the environment; demo mode (and
 * development without them) generates random ones at start, so sessions end with the process.
 * loadEnv() already refused missing or placeholder secrets outside demo mode.
 */
export const resolveAuthKeys = (env: Env, signsIn = true): AuthKeys => {
  const botToken = env.BOT_TOKEN ?? (env.DEMO || env.NODE_ENV !== 'production' ? demoBotToken() : undefined);
  const jwtSecret =
    env.JWT_SECRET ??
    (env.DEMO || env.NODE_ENV !== 'production' ? randomBytes(32).toString('hex') : undefined);
  if (botToken && jwtSecret) return { botToken, ...sessionKeys(jwtSecret) };
  if (signsIn) throw new Error('BOT_TOKEN and JWT_SECRET are required outside demo mode');
  return withoutSignIn();
};

/**
 * The keys of a process that signs nobody in (the worker): it is not handed the sign-in secrets,
 * so a service that would need them fails loudly instead of signing with a made-up key.
 */
const withoutSignIn = (): AuthKeys => {
  const refuse = (): never => {
    throw new Error('this process does not sign users in (no BOT_TOKEN / JWT_SECRET)');
  };
  return {
    get botToken(): string {
      return refuse();
    },
    tokens: { issue: refuse, verify: refuse },
    downloads: { issue: refuse, verify: refuse },
  };
};
