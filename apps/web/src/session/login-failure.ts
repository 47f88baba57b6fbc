import type { ErrorCode } from '@gridbot/contracts';
import { isApiError } from '../api/api-error';

/**
 * Sign-in failures of docs/errors.md. Catalogue codes show the catalogue's text; 'sessionInvalid' (bad
 * or expired launch data: only reopening helps) and 'maintenance' (anything else) are client texts.
 */
export type LoginFailure = LoginCode | 'sessionInvalid' | 'maintenance';

/** The sign-in refusals that tell the user what to do, each with its own catalogue text. */
const LOGIN_CODES = [
  'INIT_DATA_MISSING',
  'NO_USER',
  'REFERRAL_CODE_UNKNOWN',
  'NO_NICKNAME',
  'NO_NICKNAME_IN_DB',
  'ACCOUNT_BLOCKED',
  'RATE_LIMITED',
] as const satisfies readonly ErrorCode[];
type LoginCode = (typeof LOGIN_CODES)[number];

const isLoginCode = (code: string): code is LoginCode => (LOGIN_CODES as readonly string[]).includes(code);

export const loginFailureOf = (error: unknown): LoginFailure => {
  if (!isApiError(error)) return 'maintenance';
  if (isLoginCode(error.code)) return error.code;
  if (error.status === 429) return 'RATE_LIMITED';
  // Launch data that fails the signature or age check: only reopening the app helps.
  if (error.status === 401) return 'sessionInvalid';
  return 'maintenance';
};

/**
 * 'No User' (docs/errors.md) carries the support link; an unknown referral code is the same refusal,
 * and a blocked account is told to ask support why.
 */
export const hasSupportLink = (failure: LoginFailure): boolean =>
  failure === 'NO_USER' || failure === 'REFERRAL_CODE_UNKNOWN' || failure === 'ACCOUNT_BLOCKED';
