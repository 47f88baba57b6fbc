import { createRequire } from 'node:module';
import type { Env } from '@gridbot/config';
import { type Logger, pino } from 'pino';

/** Secrets never reach the logs (docs/security.md#logs). */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'body._auth',
  'body.initData',
  '*.secret',
  '*.secretKey',
  '*.apiSecret',
  '*.token',
];

export const loggerOptions = (level: string) => ({
  level,
  redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
});

/** pino-pretty is a development dependency: absent from a production install. */
const prettyInstalled = (): boolean => {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
};

/**
 * The process's logger (`name` tells the apps of one embedded process apart): JSON lines, or
 * readable lines for a person at a terminal — LOG_FORMAT=pretty, which is also the default when
 * standard output is a terminal and pino-pretty is installed (`npm start` in a shell).
 */
export const createLogger = (env: Pick<Env, 'LOG_LEVEL' | 'LOG_FORMAT'>, name: string): Logger => {
  const options = { ...loggerOptions(env.LOG_LEVEL), name };
  const pretty = env.LOG_FORMAT ? env.LOG_FORMAT === 'pretty' : process.stdout.isTTY === true;
  if (!pretty || !prettyInstalled()) return pino(options);
  return pino({
    ...options,
    transport: {
      target: 'pino-pretty',
      options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', singleLine: true },
    },
  });
};

export type { Logger };
