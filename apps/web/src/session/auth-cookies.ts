import { AUTH_COOKIE_DEFAULTS, readCookie, removeCookie, writeCookie } from './cookie';

/** The bearer token and the signed-in user, each in its own cookie (docs/product.md#data: loggedIn needs both). */
export const TOKEN_COOKIE = 'gb_token';
export const USER_COOKIE = 'gb_user';

export type StoredUser = { uid: number; username: string };

export const readToken = (): string | undefined => readCookie(TOKEN_COOKIE) || undefined;

export const saveAuthCookies = (token: string, user: StoredUser): void => {
  writeCookie(TOKEN_COOKIE, token, AUTH_COOKIE_DEFAULTS);
  writeCookie(USER_COOKIE, JSON.stringify({ uid: user.uid, username: user.username }), AUTH_COOKIE_DEFAULTS);
};

export const clearAuthCookies = (): void => {
  removeCookie(TOKEN_COOKIE, { path: AUTH_COOKIE_DEFAULTS.path });
  removeCookie(USER_COOKIE, { path: AUTH_COOKIE_DEFAULTS.path });
};

export const hasAuthCookies = (): boolean => Boolean(readCookie(TOKEN_COOKIE) && readCookie(USER_COOKIE));
