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

/** The process's logger (JSON lines; `name` tells the apps of one embedded process apart). */
export const createLogger = (env: Pick<Env, 'LOG_LEVEL'>, name: string): Logger =>
  pino({ ...loggerOptions(env.LOG_LEVEL), name });

export type { Logger };
