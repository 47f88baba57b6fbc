import { describe, expect, it } from 'vitest';
import { ConfigError, loadEnv } from '../src';

const production = {
  NODE_ENV: 'production',
  BOT_TOKEN: '123456789:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  JWT_SECRET: 'x'.repeat(40),
  ROOT_REFERRAL_CODE: 'operator-secret',
};

const problemOf = (source: Record<string, string>) => {
  try {
    loadEnv(source);
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

  it('runs the demo without secrets (it makes its own)', () => {
    expect(problemOf({ NODE_ENV: 'production', DEMO: '1' })).toBe('ok');
  });
});
