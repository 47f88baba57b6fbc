/**
 * Cookie helper (docs/product.md#validation): names that are cookie attribute words are refused, so a value can never
 * be mistaken for an attribute. Pure serialize/parse plus thin `document.cookie` wrappers.
 */
export const RESERVED_COOKIE_NAMES: readonly string[] = [
  'expires',
  'max-age',
  'domain',
  'path',
  'secure',
  'httponly',
  'samesite',
  'partitioned',
  'priority',
];

/** RFC 6265 cookie-name: an HTTP token. */
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export type SameSite = 'Lax' | 'Strict' | 'None';

export type CookieOptions = {
  /** Lifetime in seconds; 0 or less deletes the cookie. */
  maxAgeSeconds?: number;
  path?: string;
  sameSite?: SameSite;
  secure?: boolean;
};

/** docs/product.md#behaviour, §9: the auth cookie lives 1 day on path / with SameSite Lax. */
export const AUTH_COOKIE_DEFAULTS = {
  maxAgeSeconds: 86_400,
  path: '/',
  sameSite: 'Lax',
} as const satisfies CookieOptions;

export class CookieNameError extends Error {
  constructor(name: string) {
    super(`"${name}" cannot be used as a cookie name`);
    this.name = 'CookieNameError';
  }
}

export const assertCookieName = (name: string): void => {
  if (!COOKIE_NAME.test(name) || RESERVED_COOKIE_NAMES.includes(name.toLowerCase())) {
    throw new CookieNameError(name);
  }
};

export const serializeCookie = (name: string, value: string, options: CookieOptions = {}): string => {
  assertCookieName(name);
  const { maxAgeSeconds, path, sameSite, secure } = { ...AUTH_COOKIE_DEFAULTS, ...options };
  const parts = [`${name}=${encodeURIComponent(value)}`, `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`];
  if (maxAgeSeconds <= 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  parts.push(`Path=${path}`, `SameSite=${sameSite}`);
  if (secure || sameSite === 'None') parts.push('Secure');
  return parts.join('; ');
};

export const parseCookies = (header: string): Map<string, string> => {
  const cookies = new Map<string, string>();
  for (const pair of header.split(';')) {
    const index = pair.indexOf('=');
    if (index <= 0) continue;
    const name = pair.slice(0, index).trim();
    if (!name || cookies.has(name)) continue;
    try {
      cookies.set(name, decodeURIComponent(pair.slice(index + 1).trim()));
    } catch {
      cookies.set(name, pair.slice(index + 1).trim());
    }
  }
  return cookies;
};

const isHttps = () => typeof location !== 'undefined' && location.protocol === 'https:';

export const readCookie = (name: string): string | undefined => {
  assertCookieName(name);
  return parseCookies(document.cookie).get(name);
};

export const writeCookie = (name: string, value: string, options: CookieOptions = {}): void => {
  // biome-ignore lint/suspicious/noDocumentCookie: this is the one place that writes cookies, after the name check
  document.cookie = serializeCookie(name, value, { secure: isHttps(), ...options });
};

export const removeCookie = (name: string, options: Omit<CookieOptions, 'maxAgeSeconds'> = {}): void => {
  // biome-ignore lint/suspicious/noDocumentCookie: this is the one place that writes cookies, after the name check
  document.cookie = serializeCookie(name, '', { secure: isHttps(), ...options, maxAgeSeconds: 0 });
};
