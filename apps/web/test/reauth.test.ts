import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, retryAfterMsOf } from '../src/api/api-error';
import {
  failureKindOf,
  isTokenUsable,
  RETRY_BASE_MS,
  RETRY_CAP_MS,
  retryDelayMs,
} from '../src/session/reauth-policy';

const DAY_MS = 86_400_000;

describe('which sign-in failures end a session (docs/security.md#re-authorisation)', () => {
  it.each([
    ['a 401 (launch data refused)', 'refused', new ApiError({ status: 401, code: 'INIT_DATA_INVALID' })],
    ['a 403 (No User, blocked)', 'refused', new ApiError({ status: 403, code: 'NO_USER' })],
    ['a 400 (initData missing)', 'refused', new ApiError({ status: 400, code: 'INIT_DATA_MISSING' })],
    ['the network', 'transient', new ApiError({ status: 500, code: 'NETWORK' })],
    ['a thrown TypeError', 'transient', new TypeError('Failed to fetch')],
    ['a 502', 'transient', new ApiError({ status: 502, code: 'HTTP_502' })],
    ['a 503', 'transient', new ApiError({ status: 503, code: 'HTTP_503' })],
    ['a 429 (the per-IP sign-in limit)', 'transient', new ApiError({ status: 429, code: 'RATE_LIMITED' })],
    ['a 408', 'transient', new ApiError({ status: 408, code: 'HTTP_408' })],
  ])('%s is %s', (_name, kind, error) => {
    expect(failureKindOf(error)).toBe(kind);
  });
});

describe('retry back-off', () => {
  it('doubles from the base, half fixed and half random, up to the cap', () => {
    const low = (attempt: number) => retryDelayMs(attempt, { random: () => 0 });
    const high = (attempt: number) => retryDelayMs(attempt, { random: () => 1 });
    expect([0, 1, 2, 3].map(low)).toEqual([500, 1000, 2000, 4000]);
    expect([0, 1, 2, 3].map(high)).toEqual([1000, 2000, 4000, 8000]);
    expect(high(30)).toBe(RETRY_CAP_MS);
    expect(low(30)).toBe(RETRY_CAP_MS / 2);
    expect(retryDelayMs(0, { random: () => 0.5 })).toBe(0.75 * RETRY_BASE_MS);
  });

  it("never comes sooner than the server's Retry-After", () => {
    expect(retryDelayMs(0, { retryAfterMs: 30_000, random: () => 1 })).toBe(30_000);
    expect(retryDelayMs(10, { retryAfterMs: 1_000, random: () => 1 })).toBe(RETRY_CAP_MS);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-05-01T12:00:00Z');
    expect(retryAfterMsOf('7', now)).toBe(7_000);
    expect(retryAfterMsOf('Fri, 01 May 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMsOf('soon', now)).toBeUndefined();
    expect(retryAfterMsOf(null, now)).toBeUndefined();
  });

  it('a token signs calls until its expiry', () => {
    expect(isTokenUsable(1_000, 999)).toBe(true);
    expect(isTokenUsable(1_000, 1_000)).toBe(false);
    expect(isTokenUsable(null, 0)).toBe(false);
  });
});

// ---- the session against a scripted server ----------------------------------------------------

type Answer = Response | Error;

/** The login endpoint answers from `answers`, one each call (the last one repeats). */
const scriptServer = (answers: Answer[]) => {
  const calls: number[] = [];
  const fetch = vi.fn(async (url: string) => {
    if (!url.endsWith('/auth/login')) throw new Error(`unexpected call ${url}`);
    calls.push(Date.now());
    const answer = answers.length > 1 ? answers.shift() : answers[0];
    if (!answer) throw new Error('no answer scripted');
    if (answer instanceof Error) throw answer;
    return answer.clone();
  });
  vi.stubGlobal('fetch', fetch);
  return calls;
};

let tokens = 0;
const session = (): Response => {
  tokens += 1;
  return Response.json({
    token: `token-${tokens}`,
    expiresAt: new Date(Date.now() + DAY_MS).toISOString(),
    user: {
      uid: 100_001,
      telegramId: '555',
      username: 'anna',
      firstName: 'Anna',
      lastName: null,
      language: 'en',
      referralCode: 'ANNA1',
      createdAt: '2026-01-01T00:00:00.000Z',
    },
  });
};
const refusal = (status: number, code: string, headers: Record<string, string> = {}) =>
  Response.json({ error: true, status, code, message: code, detail: code }, { status, headers });

const loadSession = async () => {
  vi.resetModules();
  const cookies = new Map<string, string>();
  vi.stubGlobal('window', {});
  vi.stubGlobal('document', {
    visibilityState: 'visible',
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    get cookie() {
      return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    },
    set cookie(text: string) {
      const [pair = ''] = text.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (/Max-Age=0/.test(text)) cookies.delete(name);
      else cookies.set(name, value);
    },
  });
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  const signIn = await import('../src/session/sign-in');
  const lifecycle = await import('../src/session/session-lifecycle');
  const { sessionStore } = await import('../src/session/session-store');
  const { errorModalStore } = await import('../src/shell/error-modal-store');
  signIn.setLaunchContext({
    rawInitData: 'user=%7B%22id%22%3A555%7D&hash=abc',
    user: { id: 555, first_name: 'Anna', username: 'anna' } as never,
    platform: 'android',
    themeParams: {},
    startParam: null,
    demo: false,
  });
  return { ...lifecycle, sessionStore, errorModalStore };
};

/** Lets the sign-in's promises settle without moving the clock. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('re-authorisation that fails (docs/security.md#re-authorisation)', () => {
  beforeEach(() => {
    tokens = 0;
    vi.useFakeTimers({ now: Date.parse('2026-05-01T12:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('a network blip keeps the session working and is retried with back-off', async () => {
    const calls = scriptServer([
      session(),
      new TypeError('Failed to fetch'),
      new TypeError('down'),
      session(),
    ]);
    const app = await loadSession();
    const stop = app.startSessionLifecycle();
    await settle();
    expect(app.sessionStore.get()).toMatchObject({ status: 'valid', token: 'token-1' });

    app.attemptSignIn('page visible');
    await settle();
    expect(calls).toHaveLength(2);
    expect(app.sessionStore.get()).toMatchObject({ status: 'valid', token: 'token-1', failure: null });
    expect(app.errorModalStore.get()).toBeNull();

    // First retry within 0.5–1 s, the second within 1–2 s after it.
    await vi.advanceTimersByTimeAsync(RETRY_BASE_MS);
    expect(calls).toHaveLength(3);
    expect(app.sessionStore.get().status).toBe('valid');
    await vi.advanceTimersByTimeAsync(2 * RETRY_BASE_MS);
    expect(calls).toHaveLength(4);
    expect(app.sessionStore.get()).toMatchObject({ status: 'valid', token: 'token-2' });
    expect(app.errorModalStore.get()).toBeNull();
    stop();
  });

  it("a 429 waits for the server's Retry-After, then signs in again", async () => {
    const calls = scriptServer([session(), refusal(429, 'RATE_LIMITED', { 'Retry-After': '20' }), session()]);
    const app = await loadSession();
    const stop = app.startSessionLifecycle();
    await settle();
    app.attemptSignIn('timer');
    await settle();
    expect(calls).toHaveLength(2);
    expect(app.sessionStore.get().status).toBe('valid');
    await vi.advanceTimersByTimeAsync(19_900);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(200);
    expect(calls).toHaveLength(3);
    expect(calls[2]! - calls[1]!).toBeGreaterThanOrEqual(20_000);
    expect(app.sessionStore.get()).toMatchObject({ status: 'valid', token: 'token-2' });
    stop();
  });

  it('a refusal (401) ends the session at once and is not retried', async () => {
    const calls = scriptServer([session(), refusal(401, 'INIT_DATA_INVALID')]);
    const app = await loadSession();
    const stop = app.startSessionLifecycle();
    await settle();
    app.attemptSignIn('timer');
    await settle();
    expect(app.sessionStore.get()).toMatchObject({ status: 'invalid', failure: 'sessionInvalid' });
    expect(app.errorModalStore.get()).toEqual({ kind: 'login', failure: 'sessionInvalid' });
    await vi.advanceTimersByTimeAsync(RETRY_CAP_MS * 2);
    expect(calls).toHaveLength(2);
    stop();
  });

  it('the token expiring while the server stays out of reach: "retrying", never "invalid"', async () => {
    const calls = scriptServer([session(), new TypeError('Failed to fetch')]);
    const app = await loadSession();
    const stop = app.startSessionLifecycle();
    await settle();
    await vi.advanceTimersByTimeAsync(DAY_MS - 60_000);
    expect(app.sessionStore.get().status).toBe('valid');
    await vi.advanceTimersByTimeAsync(61_000);
    expect(app.sessionStore.get().status).toBe('unreachable');
    expect(app.errorModalStore.get()).toBeNull();
    const tries = calls.length;
    await vi.advanceTimersByTimeAsync(RETRY_CAP_MS);
    expect(calls.length).toBeGreaterThan(tries);
    expect(app.sessionStore.get().status).toBe('unreachable');

    // The server answers again: the app is back.
    scriptServer([session()]);
    await vi.advanceTimersByTimeAsync(RETRY_CAP_MS);
    expect(app.sessionStore.get()).toMatchObject({ status: 'valid', isAuthenticated: true });
    stop();
  });

  it('a failure at start, before any session, still shows why, and a later success closes it', async () => {
    scriptServer([refusal(503, 'HTTP_503'), session()]);
    const app = await loadSession();
    const stop = app.startSessionLifecycle();
    await settle();
    expect(app.sessionStore.get()).toMatchObject({ status: 'invalid', failure: 'maintenance' });
    expect(app.errorModalStore.get()).toEqual({ kind: 'login', failure: 'maintenance' });
    await vi.advanceTimersByTimeAsync(RETRY_BASE_MS);
    expect(app.sessionStore.get().status).toBe('valid');
    expect(app.errorModalStore.get()).toBeNull();
    stop();
  });
});
