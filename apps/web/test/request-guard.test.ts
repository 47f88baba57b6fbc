import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api/api-error';
import { createRequestGuard, TOO_MANY_REQUESTS } from '../src/api/request-guard';

const clock = () => {
  let now = 1_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
};

describe('client request guard', () => {
  it('throws the spec text once the count in the window reaches the limit', () => {
    const time = clock();
    const guard = createRequestGuard(time.now);
    const limit = { max: 2, windowMs: 2000 };
    guard.check('home.getPanel', limit);
    guard.check('home.getPanel', limit);
    let thrown: unknown;
    try {
      guard.check('home.getPanel', limit);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({ error: true, status: 429, message: TOO_MANY_REQUESTS });
    expect(TOO_MANY_REQUESTS).toBe('Too many requests. Please try again later.');
  });

  it('lets requests through again when the window has moved on', () => {
    const time = clock();
    const guard = createRequestGuard(time.now);
    const limit = { max: 1, windowMs: 2000 };
    guard.check('wallet.getWallet', limit);
    time.advance(1999);
    expect(() => guard.check('wallet.getWallet', limit)).toThrow(TOO_MANY_REQUESTS);
    time.advance(1);
    expect(() => guard.check('wallet.getWallet', limit)).not.toThrow();
  });

  it('counts each key on its own and a refused call does not count', () => {
    const time = clock();
    const guard = createRequestGuard(time.now);
    const limit = { max: 1, windowMs: 1000 };
    guard.check('a', limit);
    expect(() => guard.check('b', limit)).not.toThrow();
    expect(() => guard.check('a', limit)).toThrow();
    time.advance(1000);
    expect(() => guard.check('a', limit)).not.toThrow();
  });

  it('forgets everything on reset', () => {
    const guard = createRequestGuard(clock().now);
    const limit = { max: 1, windowMs: 60_000 };
    guard.check('a', limit);
    guard.reset();
    expect(() => guard.check('a', limit)).not.toThrow();
  });

  it('counts a request from its answer: a slow one pushes the next past the window at the server', () => {
    const time = clock();
    const guard = createRequestGuard(time.now);
    const limit = { max: 1, windowMs: 2500 };
    const answered = guard.check('wallet.getWallet', limit);
    // The answer takes 1.5 s (the server may have counted the request as late as that).
    time.advance(1500);
    answered();
    time.advance(2499);
    expect(() => guard.check('wallet.getWallet', limit)).toThrow(TOO_MANY_REQUESTS);
    time.advance(1);
    expect(() => guard.check('wallet.getWallet', limit)).not.toThrow();
  });

  it('still counts a request whose answer came after its window had been dropped', () => {
    const time = clock();
    const guard = createRequestGuard(time.now);
    const limit = { max: 1, windowMs: 1000 };
    const answered = guard.check('a', limit);
    time.advance(1200);
    expect(() => guard.check('b', limit)).not.toThrow();
    answered();
    expect(() => guard.check('a', limit)).toThrow(TOO_MANY_REQUESTS);
  });
});
