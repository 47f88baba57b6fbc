import { describe, expect, it } from 'vitest';
import { ApiError, apiErrorFromResponse, toApiError } from '../src/api/api-error';
import { fillPath, queryString } from '../src/api/call-api';
import { errorTextKeyOf, walletErrorText } from '../src/api/error-text';
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

describe('login failures (spec §8)', () => {
  it.each([
    [serverError(400, 'INIT_DATA_MISSING', 'initData отсутствует'), 'initDataMissing'],
    [serverError(401, 'INIT_DATA_INVALID', 'Invalid initData'), 'sessionInvalid'],
    [serverError(403, 'NO_USER', 'No User'), 'noUser'],
    [serverError(403, 'REFERRAL_CODE_UNKNOWN', 'No User'), 'noUser'],
    [serverError(403, 'NO_NICKNAME', 'No Nickname'), 'noNickname'],
    [serverError(403, 'NO_NICKNAME_IN_DB', 'No Nickname in DB'), 'noNicknameInDb'],
    [serverError(403, 'FORBIDDEN', 'Forbidden'), 'maintenance'],
    [serverError(429, 'RATE_LIMITED', 'Too many requests. Please try again later.'), 'tooManyRequests'],
    [serverError(500, 'INTERNAL', 'Внутренняя ошибка сервера'), 'maintenance'],
    [serverError(503, 'HTTP_503', 'Service Unavailable'), 'maintenance'],
    [new Error('boom'), 'maintenance'],
  ] as const)('%o → %s', (error, failure) => {
    expect(loginFailureOf(error)).toBe(failure);
  });

  it('puts the support link on "No User" only', () => {
    expect(hasSupportLink('noUser')).toBe(true);
    expect(hasSupportLink('noNickname')).toBe(false);
    expect(hasSupportLink('maintenance')).toBe(false);
  });
});

describe('server messages → client texts (spec §8)', () => {
  it.each([
    ['Your USDT balance on the exchange account should be more than zero', 'exchangeBalanceZero'],
    ['To start, you need to top up your wallet to pay trading fees', 'topUpWallet'],
    ['Внутренняя ошибка сервера', 'internal'],
    ['Адрес депозита не найден', 'depositAddressNotFound'],
    ["You don't have enough money on your account", 'notEnoughMoney'],
    ['Withdrawal address format error', 'withdrawAddressFormat'],
    ['You have reached your license balance limit.', 'licenseBalanceLimit'],
    ['Limit expiration of free license, cannot start trading.', 'freeLicenseExpired'],
    ['No API connection', 'noApiConnection'],
    ['Failed to update licence, try again later', 'licenseUpdateFailed'],
    ['Something nobody planned for', 'generic'],
  ])('%s → %s', (message, key) => {
    expect(errorTextKeyOf(serverError(422, 'X', message))).toBe(key);
  });

  it('names a feature that is not live yet and the client guard', () => {
    expect(errorTextKeyOf(serverError(501, 'NOT_IMPLEMENTED', 'Not implemented'))).toBe('notAvailableYet');
    expect(errorTextKeyOf(new ApiError({ status: 429, message: 'whatever' }))).toBe('tooManyRequests');
    expect(errorTextKeyOf('not an error object')).toBe('generic');
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
