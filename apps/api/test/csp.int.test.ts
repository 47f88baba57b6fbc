import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

const THEME_SCRIPT = "\n  document.documentElement.style.setProperty('--tg-theme-bg-color', '#17212b');\n";
const webDist = mkdtempSync(join(tmpdir(), 'web-dist-csp-'));
writeFileSync(
  join(webDist, 'index.html'),
  `<!doctype html><head><script>${THEME_SCRIPT}</script><script type="module" src="/assets/app.js"></script></head>`,
);

let api: TestApp;
beforeAll(async () => {
  api = await createTestApp({}, { webDist });
});
afterAll(async () => {
  await api?.close();
});

const scriptSources = (csp: string) =>
  (csp.split(';').find((directive) => directive.trim().startsWith('script-src')) ?? '').trim().split(/\s+/);

describe('content security policy', () => {
  it("allows the web app's inline theme script by its hash, not by 'unsafe-inline'", async () => {
    const res = await api.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    const sources = scriptSources(String(res.headers['content-security-policy']));
    const hash = createHash('sha256').update(THEME_SCRIPT).digest('base64');
    expect(sources).toEqual(['script-src', "'self'", 'https://telegram.org', `'sha256-${hash}'`]);
    expect(sources).not.toContain("'unsafe-inline'");
  });
});
