import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, demoExposureWarning, loadEnv, ZEnv } from '../src';

const production = {
  NODE_ENV: 'production',
  BOT_TOKEN: `123456789:${randomBytes(26).toString('base64url')}`,
  JWT_SECRET: randomBytes(32).toString('hex'),
  ROOT_REFERRAL_CODE: 'op-K7f2Qx9LmZ',
};

/** The placeholders shipped in .env.example. */
const example = {
  BOT_TOKEN: '123456789:replace-with-your-bot-token',
  JWT_SECRET: 'replace-with-64-random-hex-characters-0000000000000000000000000000',
  ROOT_REFERRAL_CODE: 'change-me-secret-code',
  SECRETS_KEY: 'replace-with-64-random-hex-characters-0000000000000000000000000000',
};

const problemOf = (source: Record<string, string>, options?: Parameters<typeof loadEnv>[1]) => {
  try {
    loadEnv(source, options);
    return 'ok';
  } catch (error) {
    return error instanceof ConfigError ? error.message : String(error);
  }
};

describe('loadEnv', () => {
  it('accepts a complete production environment and defaults to no trusted proxy', () => {
    expect(problemOf(production)).toBe('ok');
    expect(loadEnv(production).TRUST_PROXY_HOPS).toBe(0);
  });

  it.each([
    ['BOT_TOKEN', { ...production, BOT_TOKEN: '' }],
    ['JWT_SECRET', { ...production, JWT_SECRET: '' }],
    ['ROOT_REFERRAL_CODE', { ...production, ROOT_REFERRAL_CODE: 'root' }],
    [
      'ROOT_REFERRAL_CODE',
      { NODE_ENV: 'production', BOT_TOKEN: production.BOT_TOKEN, JWT_SECRET: production.JWT_SECRET },
    ],
    ['DEMO', { ...production, DEMO: '1' }],
    ['PORT', { ...production, PORT: 'eighty' }],
    ['DATABASE_URL', { ...production, DATABASE_URL: 'mysql://x' }],
  ])('names %s when it is missing or wrong', (name, source) => {
    expect(problemOf(source as Record<string, string>)).toContain(name);
  });

  it.each(['production', 'development'])(
    'refuses every placeholder of .env.example outside demo mode (NODE_ENV=%s)',
    (nodeEnv) => {
      for (const [name, value] of Object.entries(example)) {
        const message = problemOf({ ...production, NODE_ENV: nodeEnv, [name]: value });
        expect(message, name).toContain(`${name}: still the placeholder`);
      }
    },
  );

  it.each([
    ['JWT_SECRET', 'a'.repeat(64)],
    ['JWT_SECRET', 'abababababababababababababababababababab'],
    ['BOT_TOKEN', `123456789:${'A'.repeat(35)}`],
    ['ROOT_REFERRAL_CODE', 'aaaaaaaa'],
    ['SECRETS_KEY', 'f'.repeat(64)],
  ])('refuses a guessable %s', (name, value) => {
    expect(problemOf({ ...production, NODE_ENV: 'development', [name]: value })).toContain(
      `${name}: too easy to guess`,
    );
  });

  it('requires only the secrets the app names (the sandbox needs none, the worker its secrets key)', () => {
    expect(problemOf({ NODE_ENV: 'development' }, { require: [] })).toBe('ok');
    expect(
      problemOf(
        { NODE_ENV: 'production', ROOT_REFERRAL_CODE: production.ROOT_REFERRAL_CODE },
        { require: ['SECRETS_KEY'] },
      ),
    ).toContain('SECRETS_KEY: required');
  });

  it('runs the demo without secrets (it makes its own)', () => {
    expect(problemOf({ NODE_ENV: 'production', DEMO: '1' })).toBe('ok');
  });

  it('listens on loopback in demo mode unless HOST is set, and warns when it is not loopback', () => {
    expect(loadEnv({ DEMO: '1' }).HOST).toBe('127.0.0.1');
    expect(demoExposureWarning(loadEnv({ DEMO: '1' }))).toBeNull();
    const exposed = loadEnv({ DEMO: '1', HOST: '0.0.0.0' });
    expect(exposed.HOST).toBe('0.0.0.0');
    expect(demoExposureWarning(exposed)).toContain('anyone who can reach');
    expect(loadEnv(production).HOST).toBe('0.0.0.0');
  });
});

describe('operations variables', () => {
  it('HEALTH_PORT: unset (the app default), a port, or off', () => {
    expect(loadEnv({ DEMO: '1' }).HEALTH_PORT).toBeUndefined();
    expect(loadEnv({ DEMO: '1', HEALTH_PORT: '' }).HEALTH_PORT).toBeUndefined();
    expect(loadEnv({ DEMO: '1', HEALTH_PORT: '9200' }).HEALTH_PORT).toBe(9200);
    expect(loadEnv({ DEMO: '1', HEALTH_PORT: 'off' }).HEALTH_PORT).toBe('off');
    expect(problemOf({ DEMO: '1', HEALTH_PORT: 'no' })).toContain('HEALTH_PORT: a port (0-65535), or off');
    expect(problemOf({ DEMO: '1', HEALTH_PORT: '70000' })).toContain('HEALTH_PORT');
  });

  it('METRICS_TOKEN must be hard to guess outside demo mode; SHUTDOWN_DELAY_MS defaults to 0', () => {
    expect(problemOf({ ...production, METRICS_TOKEN: 'aaaaaaaaaaaaaaaa' })).toContain(
      'METRICS_TOKEN: too easy',
    );
    expect(problemOf({ ...production, METRICS_TOKEN: randomBytes(16).toString('hex') })).toBe('ok');
    expect(loadEnv(production).SHUTDOWN_DELAY_MS).toBe(0);
    expect(loadEnv({ ...production, SHUTDOWN_DELAY_MS: '5000' }).SHUTDOWN_DELAY_MS).toBe(5000);
  });
});

describe('facing the internet', () => {
  it('PUBLIC_URL must be https outside demo mode, naming the variable; demo mode, tests and loopback may use http', () => {
    for (const nodeEnv of ['production', 'development']) {
      expect(
        problemOf({ ...production, NODE_ENV: nodeEnv, PUBLIC_URL: 'http://grid.example.org' }),
      ).toContain('PUBLIC_URL: must be https:// outside demo mode');
    }
    expect(problemOf({ ...production, PUBLIC_URL: 'https://grid.example.org' })).toBe('ok');
    expect(problemOf({ DEMO: '1', PUBLIC_URL: 'http://grid.example.org' })).toBe('ok');
    expect(problemOf({ NODE_ENV: 'test', PUBLIC_URL: 'http://grid.example.org' })).toBe('ok');
    for (const local of ['http://localhost:3000', 'http://127.0.0.1:41234', 'http://[::1]:3000']) {
      expect(problemOf({ ...production, PUBLIC_URL: local }), local).toBe('ok');
    }
  });

  it('times requests out by default: headers 10 s, the whole request 30 s, idle keep-alive 72 s', () => {
    const env = loadEnv(production);
    expect([
      env.HTTP_HEADERS_TIMEOUT_MS,
      env.HTTP_REQUEST_TIMEOUT_MS,
      env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    ]).toEqual([10_000, 30_000, 72_000]);
    expect(
      problemOf({ ...production, HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '15000' }),
    ).toContain('HTTP_HEADERS_TIMEOUT_MS: must not be longer than HTTP_REQUEST_TIMEOUT_MS');
    expect(problemOf({ ...production, HTTP_REQUEST_TIMEOUT_MS: '0' })).toContain('HTTP_REQUEST_TIMEOUT_MS');
  });

  it('publishes /docs only in demo mode unless API_DOCS says otherwise', () => {
    expect(loadEnv(production).API_DOCS).toBe(false);
    expect(loadEnv({ ...production, API_DOCS: '1' }).API_DOCS).toBe(true);
    expect(loadEnv({ DEMO: '1' }).API_DOCS).toBe(true);
    expect(loadEnv({ DEMO: '1', API_DOCS: '0' }).API_DOCS).toBe(false);
  });
});

describe('.env.example', () => {
  it('lists every variable the apps read', () => {
    const example = readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8');
    const missing = Object.keys(ZEnv.shape).filter((name) => !new RegExp(`^#? ?${name}=`, 'm').test(example));
    expect(missing).toEqual([]);
  });
});

describe('secrets from files (docker secrets)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gridbot-secrets-'));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  it('reads BOT_TOKEN_FILE, JWT_SECRET_FILE, ROOT_REFERRAL_CODE_FILE and DATABASE_URL_FILE, trimmed', () => {
    const env = loadEnv({
      NODE_ENV: 'production',
      BOT_TOKEN_FILE: file('bot', `${production.BOT_TOKEN}\n`),
      JWT_SECRET_FILE: file('jwt', production.JWT_SECRET),
      ROOT_REFERRAL_CODE_FILE: file('root', `${production.ROOT_REFERRAL_CODE}\n`),
      DATABASE_URL_FILE: file('db', 'postgres://gridbot:s3cret@postgres:5432/gridbot\n'),
    });
    expect(env.BOT_TOKEN).toBe(production.BOT_TOKEN);
    expect(env.JWT_SECRET).toBe(production.JWT_SECRET);
    expect(env.ROOT_REFERRAL_CODE).toBe(production.ROOT_REFERRAL_CODE);
    expect(env.DATABASE_URL).toBe('postgres://gridbot:s3cret@postgres:5432/gridbot');
  });

  it('refuses a file it cannot read and a variable given both ways, naming them', () => {
    expect(
      problemOf({ ...production, JWT_SECRET: undefined as never, JWT_SECRET_FILE: join(dir, 'missing') }),
    ).toContain('JWT_SECRET_FILE: cannot read');
    expect(problemOf({ ...production, BOT_TOKEN_FILE: file('bot2', production.BOT_TOKEN) })).toContain(
      'BOT_TOKEN_FILE: BOT_TOKEN is set too',
    );
  });

  it('judges a secret read from a file like any other (a placeholder is refused)', () => {
    expect(
      problemOf({
        ...production,
        JWT_SECRET: undefined as never,
        JWT_SECRET_FILE: file('jwt-example', example.JWT_SECRET),
      }),
    ).toContain('JWT_SECRET');
  });
});
