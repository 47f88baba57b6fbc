import { createRequire } from 'node:module';
import type { Env } from '@gridbot/config';
import { type DestinationStream, type Logger, pino } from 'pino';
import { serializeError } from './log-errors';
import { REDACTED, registerConfiguredSecrets, type SecretEnv, scrubSecrets } from './log-secrets';

/**
 * Fields that hold secrets whatever their value (docs/security.md#logs). Values are scrubbed too:
 * every serialized line loses every configured or opened secret (log-secrets.ts).
 */
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

/**
 * The options of every pino logger of the project, also those Fastify builds from options (the
 * sandbox's servers): path redaction, the compact error serializer, and the value scrubber on the
 * serialized line — which also feeds pino-pretty, so readable output is scrubbed alike.
 */
export const loggerOptions = (level: string) => ({
  level,
  redact: { paths: REDACTED_PATHS, censor: REDACTED },
  // Typed as Fastify expects an err serializer to answer (an HTTP client's error has no stack here).
  serializers: {
    err: serializeError as (error: unknown) => { type: string; message: string; stack: string },
  },
  hooks: { streamWrite: scrubSecrets },
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

export type LoggerEnv = Pick<Env, 'LOG_LEVEL' | 'LOG_FORMAT'> & SecretEnv;

/**
 * The process's logger (`name` tells the apps of one embedded process apart): JSON lines, or
 * readable lines for a person at a terminal — LOG_FORMAT=pretty, which is also the default when
 * standard output is a terminal and pino-pretty is installed (`npm start` in a shell). Every secret
 * of `env` is registered first, so no line of this process carries one (docs/security.md#logs).
 * `destination`: where the lines go instead of standard output (JSON; tests).
 */
export const createLogger = (env: LoggerEnv, name: string, destination?: DestinationStream): Logger => {
  registerConfiguredSecrets(env);
  const options = { ...loggerOptions(env.LOG_LEVEL), name };
  if (destination) return pino(options, destination);
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
