import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { PinoPretty } from 'pino-pretty';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createLogger,
  describeStartFailure,
  forgetLogSecrets,
  loggerOptions,
  registerLogSecret,
  scrubSecrets,
} from '../src';

const capture = () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, sink, text: () => lines.join('') };
};

const sentinel = (what: string) => `SENTINEL_${what}_${randomBytes(12).toString('hex')}`;

/** An error as axios (tronweb's HTTP client) throws it: the request config, headers and all. */
const axiosError = (apiKey: string) => {
  const error = Object.assign(new Error('Request failed with status code 401'), {
    name: 'AxiosError',
    code: 'ERR_BAD_REQUEST',
    isAxiosError: true,
    status: 401,
    config: {
      baseURL: 'https://api.trongrid.io',
      url: `wallet/getnowblock?apikey=${apiKey}`,
      method: 'post',
      headers: { 'TRON-PRO-API-KEY': apiKey, Accept: 'application/json' },
      data: 'x'.repeat(3000),
    },
    request: { _header: `POST /wallet/getnowblock HTTP/1.1\r\nTRON-PRO-API-KEY: ${apiKey}\r\n` },
    response: { status: 401, headers: { 'x-echo': apiKey }, data: { Error: `bad key ${apiKey}` } },
  });
  return error;
};

afterEach(() => forgetLogSecrets());

describe('logs', () => {
  it('redact bearer tokens, cookies, initData and exchange secrets by field', () => {
    const { sink, text } = capture();
    const log = pino(loggerOptions('info'), sink);
    log.info({
      req: { headers: { authorization: 'Bearer eyJsecret', cookie: 'token=eyJsecret' } },
      body: { _auth: 'user=%7B…&hash=abc', initData: 'hash=abc' },
      account: { apiKey: 'visible-key', secret: 'sk-live-secret' },
      session: { token: 'eyJsecret' },
    });
    for (const secret of ['eyJsecret', 'hash=abc', 'sk-live-secret']) expect(text()).not.toContain(secret);
    expect(text()).toContain('[redacted]');
  });

  it('carry no configured secret in any field, message, error, URL or encoding', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gridbot-log-'));
    const secretsKey = randomBytes(32).toString('hex');
    const rotatedKey = randomBytes(32).toString('base64');
    const hotKey = randomBytes(32).toString('hex');
    writeFileSync(join(dir, 'secrets_key'), `${secretsKey},${rotatedKey}\n`);
    writeFileSync(join(dir, 'hot_wallet_key'), `0x${hotKey}\n`);
    const botSecret = `AA${randomBytes(20).toString('hex')}`;
    const secrets = {
      bot: `7000001:${botSecret}`,
      jwt: sentinel('JWT'),
      tron: sentinel('TRON_KEY'),
      metrics: sentinel('METRICS'),
      db: `${sentinel('DB')}"\\/@:%`,
      redis: sentinel('REDIS'),
    };
    const { sink, lines, text } = capture();
    const log = createLogger(
      {
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        BOT_TOKEN: secrets.bot,
        JWT_SECRET: secrets.jwt,
        TRON_API_KEY: secrets.tron,
        METRICS_TOKEN: secrets.metrics,
        DATABASE_URL: `postgres://gridbot:${encodeURIComponent(secrets.db)}@db:5432/gridbot`,
        REDIS_URL: `redis://:${secrets.redis}@redis:6379`,
        SECRETS_KEY_FILE: join(dir, 'secrets_key'),
        HOT_WALLET_KEY_FILE: join(dir, 'hot_wallet_key'),
      },
      'test',
      sink,
    );
    const everything = [...Object.values(secrets), botSecret, secretsKey, rotatedKey, hotKey];
    log.info(`connecting to postgres://gridbot:${encodeURIComponent(secrets.db)}@db:5432/gridbot`);
    log.warn({ url: `https://api.telegram.org/bot${secrets.bot}/getMe` }, 'bot api');
    log.error({ err: new Error(`Call to 'getMe' failed! (401: Unauthorized ${botSecret})`) }, 'bot failed');
    log.error({ err: axiosError(secrets.tron) }, 'watcher pass failed');
    log.info({ deep: { a: [{ b: { c: secrets.jwt, d: secrets.db, e: hotKey.toUpperCase() } }] } }, 'nested');
    log.info({ config: { key: secretsKey, rotated: rotatedKey, metrics: `Bearer ${secrets.metrics}` } });
    log.info({ query: `?key=${encodeURIComponent(secrets.db)}&redis=${secrets.redis}` }, 'encoded');
    expect(lines).toHaveLength(7);
    for (const secret of everything) {
      expect(text()).not.toContain(secret);
      expect(text()).not.toContain(encodeURIComponent(secret));
      expect(text()).not.toContain(JSON.stringify(secret).slice(1, -1));
    }
    // Not vacuous: the lines still say what happened.
    expect(text()).toContain('watcher pass failed');
    expect(text()).toContain("Call to 'getMe' failed! (401: Unauthorized [redacted])");
    expect(text()).toContain('/bot[redacted]/getMe');
    rmSync(dir, { recursive: true, force: true });
  });

  it('write an HTTP client error as one compact line: status, code, method, URL without query', () => {
    const { sink, lines } = capture();
    const log = createLogger({ LOG_LEVEL: 'info', LOG_FORMAT: 'json' }, 'watcher', sink);
    const key = sentinel('UNREGISTERED');
    log.error({ err: axiosError(key) }, 'watcher pass failed');
    const line = lines[0] ?? '';
    // Nothing of the request reached the line, though the key was never registered.
    expect(line).not.toContain(key);
    expect(line.length).toBeLessThan(500);
    expect(JSON.parse(line).err).toEqual({
      type: 'AxiosError',
      message: 'Request failed with status code 401',
      code: 'ERR_BAD_REQUEST',
      isAxiosError: true,
      status: 401,
      method: 'POST',
      url: 'https://api.trongrid.io/wallet/getnowblock',
    });
  });

  it('keep the useful fields of other errors: stack, code, small details and the cause', () => {
    const { sink, lines } = capture();
    const log = createLogger({ LOG_LEVEL: 'info', LOG_FORMAT: 'json' }, 'api', sink);
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const error = Object.assign(new Error('query failed', { cause }), {
      code: 'P2002',
      meta: { target: ['username_key'] },
      huge: { rows: 'x'.repeat(5000) },
    });
    log.error({ err: error }, 'request failed');
    const { err } = JSON.parse(lines[0] ?? '{}');
    expect(err).toMatchObject({
      type: 'Error',
      message: 'query failed',
      code: 'P2002',
      meta: { target: ['username_key'] },
      cause: { message: 'connect ECONNREFUSED 127.0.0.1:5432', code: 'ECONNREFUSED' },
    });
    // The frames, without the message a second time.
    expect(err.stack).toMatch(/^ {4}at /);
    expect(err.stack).not.toContain('query failed');
    expect(err.huge).toBeUndefined();
  });

  it('scrub the exchange keys a process opens while running', () => {
    const { sink, text } = capture();
    const log = createLogger({ LOG_LEVEL: 'info', LOG_FORMAT: 'json' }, 'worker', sink);
    const apiKey = sentinel('EXCHANGE_KEY');
    const secret = sentinel('EXCHANGE_SECRET');
    registerLogSecret(apiKey);
    registerLogSecret(secret);
    log.error(
      { err: new Error(`binance {"code":-2015,"msg":"Invalid API-key ${apiKey}","echo":"${secret}"}`) },
      'reconcile failed',
    );
    expect(text()).not.toContain(apiKey);
    expect(text()).not.toContain(secret);
    expect(text()).toContain('Invalid API-key [redacted]');
    // Short values are not secrets worth eating every word of every line for.
    registerLogSecret('abc');
    expect(scrubSecrets('abc abcdef')).toBe('abc abcdef');
  });

  it('never show a token query parameter, whatever token it is (download links)', () => {
    const { sink, text } = capture();
    const log = createLogger({ LOG_LEVEL: 'info', LOG_FORMAT: 'json' }, 'api', sink);
    const token = sentinel('LINK').replaceAll('_', '.');
    log.info({ req: { method: 'GET', url: `/export/download.csv?token=${token}&x=1` } }, 'incoming request');
    log.warn(`GET /export/download.csv?a=1&token=${encodeURIComponent(token)} failed`);
    expect(text()).not.toContain(token);
    expect(text()).toContain('/export/download.csv?token=[redacted]&x=1');
    expect(text()).toContain('?a=1&token=[redacted] failed');
    expect(scrubSecrets('token=kept-as-it-is cookie')).toBe('token=kept-as-it-is cookie');
  });

  it('keep the most recent 20,000 opened keys, and every configured secret for good', () => {
    const jwt = sentinel('JWT');
    createLogger({ LOG_LEVEL: 'info', LOG_FORMAT: 'json', JWT_SECRET: jwt }, 'api', capture().sink);
    const keys = Array.from(
      { length: 20_001 },
      (_, i) => `key${String(i).padStart(6, '0')}${'k'.repeat(20)}`,
    );
    for (const key of keys) registerLogSecret(key);
    registerLogSecret(jwt);
    const line = scrubSecrets(`${keys[0]} ${keys[1]} ${keys[20_000]} ${jwt} ${keys[2]}${keys[3]}.`);
    expect(line).toBe(`${keys[0]} [redacted] [redacted] [redacted] [redacted][redacted].`);
  });

  it('scrub the readable (pino-pretty) output alike', () => {
    const { sink, text } = capture();
    const tron = sentinel('TRON_KEY');
    createLogger({ LOG_LEVEL: 'info', LOG_FORMAT: 'json', TRON_API_KEY: tron }, 'setup', capture().sink);
    const log = pino(
      { ...loggerOptions('info'), name: 'watcher' },
      PinoPretty({ destination: sink, sync: true, colorize: false, singleLine: true }),
    );
    log.error({ err: new Error(`node refused key ${tron}`) }, 'watcher pass failed');
    expect(text()).toContain('watcher pass failed');
    expect(text()).toContain('node refused key [redacted]');
    expect(text()).not.toContain(tron);
  });

  it('print a failed start without the secrets in its message or stack', () => {
    const jwt = sentinel('JWT');
    createLogger({ LOG_LEVEL: 'info', LOG_FORMAT: 'json', JWT_SECRET: jwt }, 'api', capture().sink);
    const printed = describeStartFailure('api', new Error(`cannot sign with ${jwt}`));
    expect(printed).toContain('api: failed to start');
    expect(printed).not.toContain(jwt);
  });
});
