import { describe, expect, it } from 'vitest';
import {
  AUTH_COOKIE_DEFAULTS,
  CookieNameError,
  parseCookies,
  RESERVED_COOKIE_NAMES,
  serializeCookie,
} from '../src/session/cookie';

describe('cookie helper', () => {
  it.each(RESERVED_COOKIE_NAMES)('refuses the reserved attribute name %s in any case', (name) => {
    expect(() => serializeCookie(name, 'x')).toThrow(CookieNameError);
    expect(() => serializeCookie(name.toUpperCase(), 'x')).toThrow(CookieNameError);
  });

  it.each(['', 'a b', 'a;b', 'a=b', 'ä'])('refuses the invalid name %j', (name) => {
    expect(() => serializeCookie(name, 'x')).toThrow(CookieNameError);
  });

  it('writes the auth cookie for 1 day on path / with SameSite Lax by default', () => {
    expect(AUTH_COOKIE_DEFAULTS).toEqual({ maxAgeSeconds: 86_400, path: '/', sameSite: 'Lax' });
    expect(serializeCookie('gb_token', 'abc')).toBe('gb_token=abc; Max-Age=86400; Path=/; SameSite=Lax');
  });

  it('encodes the value so separators cannot inject attributes', () => {
    const header = serializeCookie('gb_user', '{"uid":1}; Domain=evil.test');
    expect(header.split('; ')).toHaveLength(4);
    expect(parseCookies(header.split('; ')[0] ?? '').get('gb_user')).toBe('{"uid":1}; Domain=evil.test');
  });

  it('expires a cookie with a non-positive lifetime and marks SameSite=None as Secure', () => {
    expect(serializeCookie('a', '', { maxAgeSeconds: 0 })).toContain('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
    expect(serializeCookie('a', 'b', { sameSite: 'None' })).toMatch(/; Secure$/);
    expect(serializeCookie('a', 'b', { secure: true })).toMatch(/; Secure$/);
  });

  it('parses a cookie header, first value wins, bad encodings kept raw', () => {
    const cookies = parseCookies('a=1; b=x%20y; a=2; broken=%E0%A4%A; =nameless; flag');
    expect(cookies.get('a')).toBe('1');
    expect(cookies.get('b')).toBe('x y');
    expect(cookies.get('broken')).toBe('%E0%A4%A');
    expect(cookies.has('flag')).toBe(false);
  });
});
