import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endpoints } from '@gridbot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

let prod: TestApp;
let demo: TestApp;
const webDist = mkdtempSync(join(tmpdir(), 'web-dist-'));
mkdirSync(join(webDist, 'assets'));
writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>mini app</title>');
writeFileSync(join(webDist, 'assets', 'app.js'), 'console.log(1)');
beforeAll(async () => {
  [prod, demo] = await Promise.all([
    createTestApp({ WEB_ORIGIN: 'https://app.example.com', BODY_LIMIT_BYTES: '2048' }),
    createTestApp({}, { demo: true, webDist }),
  ]);
});
afterAll(async () => {
  await Promise.all([prod?.close(), demo?.close()]);
});

describe('OpenAPI', () => {
  it('/docs/json lists every contract with its method', async () => {
    const res = await prod.app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    for (const endpoint of endpoints.filter((e) => !(e.tags as readonly string[]).includes('demo'))) {
      const path = endpoint.path.replace(/:([a-z_]+)/g, '{$1}');
      expect(doc.paths[path]?.[endpoint.method.toLowerCase()], `${endpoint.method} ${path}`).toBeDefined();
    }
  });

  it('/docs serves Swagger UI', async () => {
    const res = await prod.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger');
  });
});

describe('demo launch data', () => {
  it('does not exist outside demo mode', async () => {
    const res = await prod.app.inject({ method: 'GET', url: '/demo/launch-data' });
    expect(res.statusCode).toBe(404);
  });

  it('in demo mode returns signed initData that signs the demo user in, and a URL carrying it', async () => {
    const res = await demo.app.inject({ method: 'GET', url: '/demo/launch-data' });
    expect(res.statusCode).toBe(200);
    const { initData, url } = res.json();
    const hash = new URLSearchParams(new URL(url).hash.slice(1));
    expect(hash.get('tgWebAppData')).toBe(initData);
    expect(hash.get('tgWebAppVersion')).toBeTruthy();
    const login = await demo.app.inject({ method: 'POST', url: '/auth/login', payload: { _auth: initData } });
    expect(login.statusCode).toBe(200);
    expect(login.json().user.username).toBe('demo_trader');
  });
});

describe('the web app on the same port', () => {
  it.each(['/', '/partners', '/partners/my-partners', '/wallet/withdraw', '/pnl-stat'])(
    'a browser navigation to %s gets index.html',
    async (url) => {
      const res = await demo.app.inject({
        method: 'GET',
        url,
        headers: { accept: 'text/html,application/xhtml+xml' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('mini app');
    },
  );

  it('serves assets, and the API call sharing a screen path still answers JSON', async () => {
    expect((await demo.app.inject({ method: 'GET', url: '/assets/app.js' })).body).toContain('console.log');
    const call = await demo.app.inject({
      method: 'GET',
      url: '/partners/',
      headers: { accept: 'application/json' },
    });
    expect(call.statusCode).toBe(401);
    expect(call.json().code).toBe('UNAUTHORIZED');
  });
});

describe('HTTP hardening', () => {
  it('sends security headers and allows framing only by Telegram', async () => {
    const res = await prod.app.inject({ method: 'POST', url: '/auth/login', payload: {} });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeDefined();
    expect(String(res.headers['content-security-policy'])).toContain('frame-ancestors');
    expect(String(res.headers['content-security-policy'])).toContain('web.telegram.org');
  });

  it('allows CORS only for the web origin', async () => {
    const allowed = await prod.app.inject({
      method: 'OPTIONS',
      url: '/auth/login',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
    const denied = await prod.app.inject({
      method: 'OPTIONS',
      url: '/auth/login',
      headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'POST' },
    });
    expect(denied.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses bodies over the limit with 413 and malformed JSON with 400, in the shared error body', async () => {
    const big = await prod.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { _auth: 'x'.repeat(4096) },
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ error: true, code: 'PAYLOAD_TOO_LARGE' });
    const bad = await prod.app.inject({
      method: 'POST',
      url: '/auth/login',
      body: '{"_auth": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: true, status: 400 });
  });

  it('answers a malformed URL with the shared error body in the asked language', async () => {
    for (const url of ['/home/config/%E0%A4%A/get', '/%E0%A4%A', '/portfolio/%ZZ']) {
      const res = await prod.app.inject({ method: 'GET', url, headers: { 'accept-language': 'ru' } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({
        error: true,
        status: 400,
        code: 'VALIDATION',
        message: 'Validation error',
      });
      expect(res.json().detail, url).toContain('Некоторые поля');
    }
  });
});

describe('client address', () => {
  it('without a trusted proxy, X-Forwarded-For cannot choose the address a limit is counted under', async () => {
    const codes = [];
    for (let i = 0; i < 31; i += 1) {
      const res = await prod.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: {},
        remoteAddress: '10.7.7.7',
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
      });
      codes.push(res.statusCode);
    }
    expect(codes.at(-1)).toBe(429);
  });
});
