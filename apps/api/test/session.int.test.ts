import { endpoints } from '@gridbot/contracts';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let nextAddress = 1;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** A concrete URL for a contract path (`:name` → a valid value). */
const urlOf = (path: string) =>
  path
    .replace(':name', 'localization')
    .replace(':period', 'current_month')
    .replace(/:[a-z_]+/g, 'BTC');

const protectedEndpoints = endpoints.filter((e) => e.auth);

describe('401 on every protected route', () => {
  it('covers every spec call except sign-in and demo', () => {
    expect(protectedEndpoints.length).toBeGreaterThan(45);
  });

  it.each(protectedEndpoints.map((e) => [e.method, e.path] as const))(
    '%s %s without a token → 401',
    async (method, path) => {
      // One address per call: failed tokens are limited per address (rate-limit.int.test.ts).
      const res = await t.app.inject({
        method,
        url: urlOf(path),
        headers: { accept: 'application/json' },
        remoteAddress: `10.1.${(nextAddress >> 8) & 255}.${nextAddress++ & 255}`,
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: true, status: 401, code: 'UNAUTHORIZED' });
    },
  );

  it('rejects a malformed, a foreign and an expired token', async () => {
    const user = await t.createUser({ username: 'tokens' });
    const past = Math.floor(Date.now() / 1000) - 90_000;
    const expired = await new SignJWT({ uid: user.uid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(user.id))
      .setIssuer('gridbot')
      .setIssuedAt(past)
      .setExpirationTime(past + 86_400)
      .sign(new TextEncoder().encode('x'.repeat(64)));
    const foreign = await new SignJWT({ uid: user.uid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(user.id))
      .setIssuer('gridbot')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('y'.repeat(64)));
    for (const authorization of [
      'Bearer nonsense',
      `Bearer ${foreign}`,
      `Bearer ${expired}`,
      'Basic abc',
      '',
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/home/config/localization/get',
        headers: { authorization },
      });
      expect(res.statusCode, authorization).toBe(401);
    }
    const good = await t.app.inject({
      method: 'GET',
      url: '/home/config/localization/get',
      headers: await t.authHeader(user),
    });
    expect(good.statusCode).toBe(200);
  });

  // Found by the hostile-input fuzz: these answered 500 (a foreign key, a missing row).
  it('a correctly signed token of a user this database does not have is 401, and writes nothing', async () => {
    const ghost = await t.tokens.issue({ userId: 2_000_000_000, uid: 2_000_000_000 });
    const headers = { authorization: `Bearer ${ghost.token}` };
    const before = await t.prisma.userConfig.count();
    for (const [method, url, payload] of [
      ['POST', '/home/config/theme/set?data=dark'],
      ['GET', '/portfolio/profit?user_id=1'],
      ['POST', '/partners/network_expansion/detail'],
      ['POST', '/profile/notificate', { fills: false }],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers,
        remoteAddress: `10.2.0.${nextAddress++}`,
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode, url).toBe(401);
      expect(res.json(), url).toMatchObject({ error: true, status: 401, code: 'UNAUTHORIZED' });
    }
    expect(await t.prisma.userConfig.count()).toBe(before);
  });
});

describe('every contract is registered', () => {
  it.each(
    endpoints
      .filter((e) => !(e.tags as readonly string[]).includes('demo'))
      .map((e) => [e.method, e.path] as const),
  )('%s %s is routed (never 404)', async (method, path) => {
    const user = await t.createUser({ username: `u${Math.random().toString(36).slice(2, 10)}` });
    const res = await t.app.inject({
      method,
      url: urlOf(path),
      headers: { ...(await t.authHeader(user)), accept: 'application/json' },
    });
    // A handler may answer 404 for a missing resource (COIN_NOT_FOUND); the router's is NOT_FOUND.
    if (res.statusCode === 404) expect(res.json().code).not.toBe('NOT_FOUND');
    if (res.statusCode === 501) expect(res.json()).toMatchObject({ code: 'NOT_IMPLEMENTED', status: 501 });
  });

  it('unknown paths answer the shared 404 body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/no/such/route' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: true, code: 'NOT_FOUND' });
  });
});
