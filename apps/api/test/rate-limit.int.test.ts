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

  it('the two sign-in routes keep separate budgets', async () => {
    const address = '10.9.9.10';
    for (let i = 0; i < 31; i += 1) {
      await t.app.inject({ method: 'POST', url: '/auth/login', payload: {}, remoteAddress: address });
    }
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: {},
      remoteAddress: address,
    });
    expect(login.statusCode).toBe(429);
    const telegram = await t.app.inject({
      method: 'POST',
      url: '/auth/telegram',
      payload: {},
      remoteAddress: address,
    });
    expect(telegram.statusCode).toBe(400);
  });

  it('a flood of bad tokens on protected routes is limited per IP; valid tokens from that IP still pass', async () => {
    const address = '10.9.9.11';
    const codes: number[] = [];
    for (let i = 0; i < 34; i += 1) {
      const [method, url] = i % 2 === 0 ? ['GET', '/home/config/localization/get'] : ['POST', '/wallet/'];
      const headers = i % 3 === 0 ? {} : { authorization: `Bearer forged.${i}.token` };
      codes.push(
        (await t.app.inject({ method: method as 'GET', url, headers, remoteAddress: address })).statusCode,
      );
    }
    expect(codes.slice(0, 30).every((c) => c === 401)).toBe(true);
    expect(codes.slice(30).every((c) => c === 429)).toBe(true);
    // Another address is not affected, and a signed-in user behind the same address neither.
    const other = await t.app.inject({ method: 'POST', url: '/wallet/', remoteAddress: '10.9.9.12' });
    expect(other.statusCode).toBe(401);
    const user = await t.createUser({ username: 'rl_flood_ok' });
    const ok = await t.app.inject({
      method: 'GET',
      url: '/home/config/localization/get',
      headers: await t.authHeader(user),
      remoteAddress: address,
    });
    expect(ok.statusCode).toBe(200);
  });
});
