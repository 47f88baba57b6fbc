import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe(`server rate limits per user (${process.env.REDIS_URL ? 'Redis' : 'in-process'} store)`, () => {
  it("POST /home/ allows 1 call per 2 s per user and answers 429 with the spec's message", async () => {
    const alice = await t.createUser({ username: 'rl_alice' });
    const bob = await t.createUser({ username: 'rl_bob' });
    const first = await t.app.inject({ method: 'POST', url: '/home/', headers: await t.authHeader(alice) });
    expect(first.statusCode).not.toBe(429);
    const second = await t.app.inject({ method: 'POST', url: '/home/', headers: await t.authHeader(alice) });
    expect(second.statusCode).toBe(429);
    expect(second.json()).toMatchObject({
      error: true,
      status: 429,
      code: 'RATE_LIMITED',
      message: 'Too many requests. Please try again later.',
    });
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
    // Limits are per user: another user is not affected.
    const other = await t.app.inject({ method: 'POST', url: '/home/', headers: await t.authHeader(bob) });
    expect(other.statusCode).not.toBe(429);
  });

  it('POST /portfolio/trades allows 1 per second', async () => {
    const user = await t.createUser({ username: 'rl_trades' });
    const headers = await t.authHeader(user);
    const codes = [];
    for (let i = 0; i < 3; i += 1) {
      codes.push(
        (await t.app.inject({ method: 'POST', url: '/portfolio/trades?coin_user_id=1', headers })).statusCode,
      );
    }
    expect(codes.filter((c) => c === 429)).toHaveLength(2);
  });

  it('sign-in is limited per IP', async () => {
    const codes = [];
    for (let i = 0; i < 35; i += 1) {
      codes.push(
        (await t.app.inject({ method: 'POST', url: '/auth/login', payload: {}, remoteAddress: '10.9.9.9' }))
          .statusCode,
      );
    }
    expect(codes.slice(0, 30).every((c) => c === 400)).toBe(true);
    expect(codes.slice(30).every((c) => c === 429)).toBe(true);
  });
});
