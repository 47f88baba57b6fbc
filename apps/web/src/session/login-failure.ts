import { isApiError } from '../api/api-error';

/**
 * Sign-in failures of spec §8, as keys of `login.failure.*` in the translations. 'No User' carries
 * the support link.
 */
export type LoginFailure =
  | 'initDataMissing'
  | 'sessionInvalid'
  | 'noUser'
  | 'noNickname'
  | 'noNicknameInDb'
  | 'tooManyRequests'
  | 'maintenance';

export const SUPPORT_URL = 'https://t.me/gridbot_support';

const FORBIDDEN_MESSAGES: Record<string, LoginFailure> = {
  'No User': 'noUser',
  'No Nickname': 'noNickname',
  'No Nickname in DB': 'noNicknameInDb',
};

export const loginFailureOf = (error: unknown): LoginFailure => {
  if (!isApiError(error)) return 'maintenance';
  if (
    error.status === 400 &&
    (error.code === 'INIT_DATA_MISSING' || error.message.startsWith('initData отсутствует'))
  ) {
    return 'initDataMissing';
  }
  // Launch data that fails the signature or age check: only reopening the app helps.
  if (error.status === 401) return 'sessionInvalid';
  if (error.status === 403) return FORBIDDEN_MESSAGES[error.message] ?? 'maintenance';
  if (error.status === 429) return 'tooManyRequests';
  return 'maintenance';
};

export const hasSupportLink = (failure: LoginFailure): boolean => failure === 'noUser';
