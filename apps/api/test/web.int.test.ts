import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

// A built web app as `vite build` leaves it (docs/performance.md#web): hashed assets with their
// brotli and gzip copies, a hidden source map, the manifest naming the language chunks.
const webDist = mkdtempSync(join(tmpdir(), 'web-dist-'));
const script = `console.log(${JSON.stringify('mini app '.repeat(300))});`;
// The head as vite build leaves it: the entry, its module preloads and the stylesheet.
const html = `<!doctype html><title>mini app</title>
<script type="module" crossorigin src="/assets/index-AbCd12_-.js"></script>
<link rel="modulepreload" crossorigin href="/assets/react-RrEe1234.js">
<link rel="stylesheet" crossorigin href="/assets/index-CsSs1234.css">${'<!-- padding -->'.repeat(100)}`;
mkdirSync(join(webDist, 'assets'));
mkdirSync(join(webDist, '.vite'));
const write = (path: string, text: string) => {
  writeFileSync(join(webDist, path), text);
  writeFileSync(join(webDist, `${path}.br`), brotliCompressSync(text));
  writeFileSync(join(webDist, `${path}.gz`), gzipSync(text));
};
write('index.html', html);
// docs/grid.md#adding-a-coin: the build copies the coin icons to /coins/ (small ones uncompressed).
const btcIcon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${'<g/>'.repeat(300)}</svg>`;
mkdirSync(join(webDist, 'coins'));
write('coins/btc.svg', btcIcon);
write('assets/index-AbCd12_-.js', script);
writeFileSync(join(webDist, 'assets/index-AbCd12_-.js.map'), '{"version":3}');
writeFileSync(join(webDist, 'assets/ru-RuRu1234.js'), 'export const ru = {};');
writeFileSync(
  join(webDist, '.vite/manifest.json'),
  JSON.stringify({
    'index.html': { file: 'assets/index-AbCd12_-.js', isEntry: true },
    'src/i18n/locales/ru.ts': { file: 'assets/ru-RuRu1234.js' },
    'src/i18n/locales/en.ts': { file: 'assets/en-EnEn1234.js' },
  }),
);

let demo: TestApp;
beforeAll(async () => {
  demo = await createTestApp({}, { demo: true, webDist });
});
afterAll(async () => {
  await demo?.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  demo.app.inject({ method: 'GET', url, headers });

describe('the built web app: compression', () => {
  it('sends the brotli copy to a browser that accepts it', async () => {
    const res = await get('/assets/index-AbCd12_-.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends the gzip copy when brotli is not accepted', async () => {
    const res = await get('/assets/index-AbCd12_-.js', { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends the file as it is without Accept-Encoding, still saying it varies by it', async () => {
    const res = await get('/assets/index-AbCd12_-.js', { 'accept-encoding': 'identity' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.body).toBe(script);
  });

  it('compresses index.html for a navigation too', async () => {
    const res = await get('/wallet', { accept: 'text/html', 'accept-encoding': 'br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(html);
  });
});

describe('the built web app: caching', () => {
  it('caches hashed assets for a year as immutable', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const res = await get('/assets/index-AbCd12_-.js', { 'accept-encoding': encoding });
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('revalidates index.html on every load, by navigation or by name', async () => {
    for (const url of ['/', '/partners/my-partners']) {
      const res = await get(url, { accept: 'text/html', 'accept-encoding': 'br' });
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    expect((await get('/index.html')).headers['cache-control']).toBe('no-cache');
  });
});

describe('the built web app: coin icons', () => {
  it('serves a coin icon from the installation, compressed and cached for a month', async () => {
    const res = await get('/coins/btc.svg', { accept: 'image/avif,image/webp,*/*', 'accept-encoding': 'br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/image\/svg\+xml/);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=2592000, stale-while-revalidate=604800');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(btcIcon);
  });

  it('answers a coin without an icon with a plain 404, not the app page', async () => {
    for (const accept of ['image/avif,image/webp,*/*', 'text/html']) {
      const res = await get('/coins/nosuchcoin.svg', { accept });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body).not.toContain('<title>mini app</title>');
    }
  });
});

describe('the built web app: source maps and preloads', () => {
  it('never serves a source map', async () => {
    const res = await get('/assets/index-AbCd12_-.js.map');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('"version"');
  });

  it('hands the likely language and, in the demo, the launch data to the page as preloads', async () => {
    const ru = await get('/', { accept: 'text/html', 'accept-language': 'ru-RU,ru;q=0.9' });
    expect(ru.headers.link).toContain('</assets/ru-RuRu1234.js>; rel=modulepreload');
    expect(ru.headers.link).toContain('</demo/launch-data>; rel=preload; as=fetch; crossorigin');
    const other = await get('/', { accept: 'text/html', 'accept-language': 'de-DE' });
    expect(other.headers.link).toContain('</assets/en-EnEn1234.js>; rel=modulepreload');
  });
});

describe('the built web app: early hints', () => {
  it("names the page's entry, module preloads and stylesheet, and the page's own preloads, in a 103 first", async () => {
    await demo.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = demo.app.server.address() as AddressInfo;
    const hints: string[] = [];
    const page = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpGet(
        {
          host: '127.0.0.1',
          port,
          path: '/wallet',
          headers: { accept: 'text/html', 'accept-language': 'ru' },
        },
        (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            body += chunk;
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      request.on('information', (info) => {
        if (info.statusCode === 103) hints.push(String(info.headers.link));
      });
      request.on('error', reject);
    });
    expect(page.status).toBe(200);
    expect(page.body).toBe(html);
    expect(hints).toHaveLength(1);
    expect(hints[0]?.split(/,\s*/)).toEqual([
      '</assets/ru-RuRu1234.js>; rel=modulepreload',
      '</demo/launch-data>; rel=preload; as=fetch; crossorigin',
      '</assets/index-AbCd12_-.js>; rel=modulepreload; crossorigin',
      '</assets/react-RrEe1234.js>; rel=modulepreload; crossorigin',
      '</assets/index-CsSs1234.css>; rel=preload; as=style; crossorigin',
    ]);
  });
});
