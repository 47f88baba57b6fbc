import { type ErrorCode, errorCatalogue } from '@gridbot/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError, apiErrorFromResponse, toApiError } from '../src/api/api-error';
import { fillPath, queryString } from '../src/api/call-api';
import { errorMessage, errorTextOf, walletErrorText } from '../src/api/error-text';
import type { Language } from '../src/i18n/language';
import { cn } from '../src/i18n/locales/cn';
import { en } from '../src/i18n/locales/en';
import { ru } from '../src/i18n/locales/ru';
import { hasSupportLink, loginFailureOf } from '../src/session/login-failure';

const serverError = (status: number, code: string, message: string, detail = '') =>
  apiErrorFromResponse(status, { error: true, status, code, message, detail });

describe('the error object', () => {
  it('is built from the server error body', () => {
    const error = serverError(422, 'NO_API_CONNECTION', 'No API connection', 'Check your keys.');
    expect(error).toMatchObject({
      error: true,
      status: 422,
      code: 'NO_API_CONNECTION',
      message: 'No API connection',
      detail: 'Check your keys.',
    });
    expect(error.toJSON()).toEqual({
      error: true,
      status: 422,
      code: 'NO_API_CONNECTION',
      message: 'No API connection',
      detail: 'Check your keys.',
    });
  });

  it('defaults the status to 500 and survives bodies that are not the error shape', () => {
    expect(new ApiError({})).toMatchObject({ error: true, status: 500 });
    expect(apiErrorFromResponse(0, undefined)).toMatchObject({ status: 500 });
    expect(apiErrorFromResponse(502, { message: 'Bad gateway' })).toMatchObject({
      status: 502,
      message: 'Bad gateway',
    });
    expect(toApiError(new TypeError('Failed to fetch'))).toMatchObject({ status: 500, code: 'NETWORK' });
  });
});

describe('login failures (docs/errors.md)', () => {
  it.each([
    [serverError(400, 'INIT_DATA_MISSING', 'initData отсутствует'), 'INIT_DATA_MISSING'],
    [serverError(401, 'INIT_DATA_INVALID', 'Invalid initData'), 'sessionInvalid'],
    [serverError(403, 'NO_USER', 'No User'), 'NO_USER'],
    [serverError(403, 'REFERRAL_CODE_UNKNOWN', 'No User'), 'REFERRAL_CODE_UNKNOWN'],
    [serverError(403, 'NO_NICKNAME', 'No Nickname'), 'NO_NICKNAME'],
    [serverError(403, 'NO_NICKNAME_IN_DB', 'No Nickname in DB'), 'NO_NICKNAME_IN_DB'],
    [serverError(403, 'ACCOUNT_BLOCKED', 'Account blocked'), 'ACCOUNT_BLOCKED'],
    [serverError(403, 'FORBIDDEN', 'Forbidden'), 'maintenance'],
    [serverError(429, 'RATE_LIMITED', 'Too many requests. Please try again later.'), 'RATE_LIMITED'],
    [serverError(500, 'INTERNAL', 'Внутренняя ошибка сервера'), 'maintenance'],
    [serverError(503, 'HTTP_503', 'Service Unavailable'), 'maintenance'],
    [new Error('boom'), 'maintenance'],
  ] as const)('%o → %s', (error, failure) => {
    expect(loginFailureOf(error)).toBe(failure);
  });

  it('reads the code, not the English message', () => {
    expect(loginFailureOf(serverError(403, 'FORBIDDEN', 'No User'))).toBe('maintenance');
    expect(loginFailureOf(serverError(403, 'NO_NICKNAME', 'Something else entirely'))).toBe('NO_NICKNAME');
  });

  it('puts the support link on "No User" and a blocked account only', () => {
    expect(hasSupportLink('NO_USER')).toBe(true);
    expect(hasSupportLink('REFERRAL_CODE_UNKNOWN')).toBe(true);
    expect(hasSupportLink('ACCOUNT_BLOCKED')).toBe(true);
    expect(hasSupportLink('NO_NICKNAME')).toBe(false);
    expect(hasSupportLink('maintenance')).toBe(false);
  });
});

/** The client's own texts, looked up like i18next does. */
const clientTexts = { en, ru, cn } as const;
const translator = (language: Language) => (key: string) =>
  key
    .split('.')
    .reduce<unknown>(
      (node, part) => (node as Record<string, unknown>)[part],
      clientTexts[language],
    ) as string;
const LANGUAGES = ['en', 'ru', 'cn'] as const;

describe('error texts chosen by code (docs/errors.md)', () => {
  const codes = Object.keys(errorCatalogue) as ErrorCode[];

  it.each(LANGUAGES)('gives every catalogue code its catalogue text in %s', (language) => {
    for (const code of codes) {
      // The English message on the wire is deliberately wrong: only the code may choose the text.
      const text = errorMessage(serverError(422, code, 'No API connection'), language, translator(language));
      expect(text, code).toBe(errorCatalogue[code].detail[language]);
      expect(text.trim(), code).not.toBe('');
    }
  });

  it.each([
    ['EXCHANGE_BALANCE_ZERO', 'ru', 'Баланс USDT на вашем биржевом аккаунте должен быть больше нуля.'],
    ['DEPOSIT_ADDRESS_NOT_FOUND', 'en', 'Deposit address not found.'],
    ['INSUFFICIENT_FUNDS', 'cn', '您的账户余额不足。'],
    ['NO_API_CONNECTION', 'en', 'Failed to start trading: check your API keys.'],
  ] as const)('%s in %s', (code, language, text) => {
    expect(errorMessage(serverError(422, code, 'whatever'), language, translator(language))).toBe(text);
  });

  it('falls back to the action text, then the generic text, for a code nobody planned', () => {
    const unknown = serverError(
      422,
      'SOMETHING_NEW',
      'Your USDT balance on the exchange account should be more than zero',
    );
    expect(errorMessage(unknown, 'en', translator('en'))).toBe(en.errors.generic);
    expect(errorMessage(unknown, 'ru', translator('ru'), 'startTrading')).toBe(ru.fallback.startTrading);
    expect(errorMessage('not an error object', 'cn', translator('cn'))).toBe(cn.errors.generic);
  });

  it('names the network, the client guard and a feature that is not live yet', () => {
    expect(errorTextOf(toApiError(new TypeError('Failed to fetch')))).toEqual({ key: 'network' });
    expect(errorTextOf(new ApiError({ status: 429, code: 'HTTP_429' }))).toEqual({ code: 'RATE_LIMITED' });
    expect(errorTextOf(apiErrorFromResponse(501, 'Not Implemented'))).toEqual({ code: 'NOT_IMPLEMENTED' });
    expect(errorTextOf(new ApiError({ status: 400, code: 'HTTP_400' }))).toBeNull();
  });

  it('uses the detail, then the message, for wallet address errors', () => {
    expect(
      walletErrorText(serverError(400, 'X', 'Withdrawal address format error', 'Use a TRC20 address.')),
    ).toBe('Use a TRC20 address.');
    expect(walletErrorText(serverError(400, 'X', 'Withdrawal address format error'))).toBe(
      'Withdrawal address format error',
    );
    expect(walletErrorText(new Error('x'))).toBeNull();
  });
});

describe('request building', () => {
  it('fills path parameters and encodes them', () => {
    expect(fillPath('/home/config/:name/get', { name: 'localization' })).toBe(
      '/home/config/localization/get',
    );
    expect(fillPath('/portfolio/:coin', { coin: 'A/B' })).toBe('/portfolio/A%2FB');
    expect(() => fillPath('/portfolio/:coin', {})).toThrow(ApiError);
  });

  it('builds the query string without empty values', () => {
    expect(queryString({ days: 30, page: 1, type: undefined })).toBe('?days=30&page=1');
    expect(queryString({})).toBe('');
    expect(queryString(undefined)).toBe('');
  });
});
