import type { login, ResponseOf } from '@gridbot/contracts';
import { createStore } from '../state/create-store';
import { hasAuthCookies, readToken } from './auth-cookies';
import type { LoginFailure } from './login-failure';

export type SessionUser = ResponseOf<typeof login>['user'];

/**
 * Auth state of docs/product.md#data; `status` says whether the routed view may show (docs/product.md#screens).
 * `ended`: the user signed out on all devices (docs/security.md#sessions); only reopening the mini
 * app from Telegram, with new launch data, signs in again. `unreachable`: the token has expired
 * while re-authorisation could not reach the server; sign-in is being retried
 * (docs/security.md#re-authorisation).
 */
export type SessionState = {
  status: 'pending' | 'valid' | 'invalid' | 'ended' | 'unreachable';
  user: SessionUser | null;
  token: string | null;
  /** When the token expires (epoch ms); null before the first sign-in of this page. */
  expiresAt: number | null;
  /** True while the bearer-token cookie and the user cookie exist. */
  loggedIn: boolean;
  isAuthenticated: boolean;
  failure: LoginFailure | null;
};

export const sessionStore = createStore<SessionState>({
  status: 'pending',
  user: null,
  token: typeof document === 'undefined' ? null : (readToken() ?? null),
  expiresAt: null,
  loggedIn: typeof document === 'undefined' ? false : hasAuthCookies(),
  isAuthenticated: false,
  failure: null,
});
