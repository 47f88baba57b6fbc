import { describe, expect, it } from 'vitest';
import { verifyInitData } from '../src/auth/init-data';
import { productLanguageFor, referralCodeFrom } from '../src/auth/referral-code';
import { signLaunchData } from '../src/demo/launch-data';
import { AppError } from '../src/errors';

const TOKEN = '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ012345';
const now = new Date('2026-11-21T12:00:00Z');
const user = { telegramId: 7_987_654_321n, username: 'neo', firstName: 'Thomas', lastName: 'Anderson' };

const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (error) {
    return error instanceof AppError ? error.code : String(error);
  }
};

describe('verifyInitData', () => {
  const valid = signLaunchData({ botToken: TOKEN, user, startParam: 'ref_abcd1234', authDate: now });

  it('accepts data signed the Telegram way and reads the user, start param and a 10-digit id exactly', () => {
    const result = verifyInitData(valid, TOKEN, 86_400, now);
    expect(result.user).toMatchObject({ username: 'neo', firstName: 'Thomas', lastName: 'Anderson' });
    expect(result.user.id).toBe(7_987_654_321n);
    expect(result.startParam).toBe('ref_abcd1234');
    expect(result.authDate.toISOString()).toBe(now.toISOString());
  });

  it.each([
    ['undefined', undefined, 'INIT_DATA_MISSING'],
    ['empty', '', 'INIT_DATA_MISSING'],
    ['no hash', valid.replace(/&?hash=[0-9a-f]+/, ''), 'INIT_DATA_INVALID'],
    ['hash of wrong length', valid.replace(/hash=[0-9a-f]+/, 'hash=abcd'), 'INIT_DATA_INVALID'],
    ['changed field', valid.replace('neo', 'trinity'), 'INIT_DATA_INVALID'],
    ['added field', `${valid}&extra=1`, 'INIT_DATA_INVALID'],
    [
      'flipped hash digit',
      valid.replace(/hash=([0-9a-f])/, (_m, d) => `hash=${d === '0' ? '1' : '0'}`),
      'INIT_DATA_INVALID',
    ],
    ['garbage', 'not init data at all', 'INIT_DATA_INVALID'],
  ])('refuses %s', (_name, raw, code) => {
    expect(codeOf(() => verifyInitData(raw, TOKEN, 86_400, now))).toBe(code);
  });

  it('refuses another bot token', () => {
    expect(codeOf(() => verifyInitData(valid, '654321:ZYXWVUTSRQPONMLKJIHGFEDCBA98765', 86_400, now))).toBe(
      'INIT_DATA_INVALID',
    );
  });

  it.each([
    [86_399, 'ok'],
    [86_401, 'INIT_DATA_INVALID'],
  ])('max age: %s s old → %s', (ageS, code) => {
    const later = new Date(now.getTime() + ageS * 1000);
    expect(codeOf(() => verifyInitData(valid, TOKEN, 86_400, later))).toBe(code);
  });

  it('refuses auth_date far in the future', () => {
    const earlier = new Date(now.getTime() - 3_600_000);
    expect(codeOf(() => verifyInitData(valid, TOKEN, 86_400, earlier))).toBe('INIT_DATA_INVALID');
  });
});

describe('referral codes and languages', () => {
  it.each([
    ['ref_abcd1234', 'abcd1234'],
    ['ref_root', 'root'],
    ['ref_', null],
    ['abcd1234', null],
    ['ref_a b', null],
    [null, null],
  ])('%s → %s', (param, code) => {
    expect(referralCodeFrom(param)).toBe(code);
  });

  it.each([
    ['ru', 'ru'],
    ['uk', 'ru'],
    ['zh-hans', 'cn'],
    ['en-US', 'en'],
    ['de', 'en'],
    [null, 'en'],
  ])('Telegram %s → %s', (code, language) => {
    expect(productLanguageFor(code)).toBe(language);
  });
});
