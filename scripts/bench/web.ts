/*
 * Web benchmark (docs/performance.md#web): the mini app's first screen on a throttled mid-range
 * phone, target ≤ 2 s. `npx tsx scripts/bench/web.ts [--runs N] [--no-build] [--waterfall] [--cpu 4]`
 * (--waterfall: every request of each run before the first screen, with its start, end and size;
 * --trace DIR: a Chrome trace of each run, web-run-N.json, for DevTools' Performance panel).
 *
 * Builds the web app (unless --no-build), starts the embedded demo (`npm start` composition on a
 * temp data folder, prices standing still) and opens it N times (default 3) in Debian's Chromium,
 * each time in a new browser (cold cache, no open connections) at 390×844 with the phone profile:
 * CPU 4× slower, 150 ms latency, 1.6 Mbit/s down and up (CDP Network.emulateNetworkConditions,
 * Emulation.setCPUThrottlingRate).
 *
 * First screen interactive = `performance.mark('first-screen')`, which the user layout sets once
 * the initial load has settled and the router has the screen's code: the panel rendered with its
 * data (or a failed call's message in place) and the tab bar in place. The script checks both are on screen and the tab bar takes a tap.
 * Bytes and requests count what started before that moment (HTML, code, API calls).
 *
 * Transport: as in production (Telegram opens mini apps only over HTTPS: an installation sits
 * behind a TLS terminator speaking HTTP/2), the app and the floor are reached through a TLS front in this process
 * (node:http2, HTTP/2 with HTTP/1.1 fallback, a throwaway self-signed certificate) that forwards to
 * the plain HTTP servers: the browser then accepts brotli and multiplexes on one connection.
 * `--transport h1` measures plain HTTP/1.1 without the front.
 *
 * Floor, measured in the same run under the same throttling: a bare page whose one script carries
 * as many (incompressible) bytes as the app transferred, served by a bare Node server; its time to
 * run that script is what moving those bytes over this link costs at the least.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http, { createServer } from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import type { Page } from 'playwright-core';
import { startStandalone } from '../../apps/standalone/src/start-standalone';
import { launchBrowser } from '../../apps/web/e2e/support/browser';

const TARGET_MS = 2000;
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'no-build': { type: 'boolean', default: false },
    waterfall: { type: 'boolean', default: false },
    cpu: { type: 'string', default: '4' },
    transport: { type: 'string', default: 'h2' },
    trace: { type: 'string' },
  },
});
const PHONE = {
  viewport: { width: 390, height: 844 },
  cpuSlowdown: Number(values.cpu),
  latencyMs: 150,
  bytesPerSecond: 1_600_000 / 8,
};
const runs = Number(values.runs);
const root = new URL('../..', import.meta.url).pathname;

if (!values['no-build']) {
  const build = spawnSync('npm', ['run', '-s', 'build', '-w', '@gridbot/web'], {
    cwd: root,
    stdio: 'ignore',
  });
  if (build.status !== 0) throw new Error('npm run build -w @gridbot/web failed');
}

/** What DevTools' Performance panel records: tasks, script evaluation, layout, CPU samples, network. */
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-v8.cpu_profiler',
  'v8.execute',
  'blink.user_timing',
  'loading',
];

type Load = { ms: number; bytes: number; requests: number; waterfall: string[] };

/** A new browser with the phone profile; `measure` runs on its one page. */
const onThrottledPhone = async <T>(measure: (page: Page) => Promise<T>, traceFile?: string): Promise<T> => {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({
      viewport: PHONE.viewport,
      deviceScaleFactor: 3,
      isMobile: true,
      hasTouch: true,
      locale: 'en-US',
      ignoreHTTPSErrors: true,
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: PHONE.latencyMs,
      downloadThroughput: PHONE.bytesPerSecond,
      uploadThroughput: PHONE.bytesPerSecond,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpuSlowdown });
    if (!traceFile) return await measure(page);
    const events: unknown[] = [];
    cdp.on('Tracing.dataCollected', (event) => events.push(...event.value));
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: TRACE_CATEGORIES } });
    const result = await measure(page);
    await cdp.send('Tracing.end');
    await complete;
    writeFileSync(traceFile, JSON.stringify({ traceEvents: events }));
    return result;
  } finally {
    await browser.close();
  }
};

/** Time of a performance mark, and what was requested (and moved) before it, read in the page. */
const timeline = (page: Page, mark: string): Promise<Load> =>
  page.evaluate((name) => {
    const at = performance.getEntriesByName(name)[0]?.startTime ?? Number.NaN;
    const entries = [
      ...performance.getEntriesByType('navigation'),
      ...performance.getEntriesByType('resource'),
    ] as PerformanceResourceTiming[];
    const before = entries.filter((entry) => entry.startTime <= at);
    return {
      ms: at,
      bytes: before.reduce((sum, entry) => sum + entry.transferSize, 0),
      requests: before.length,
      waterfall: [...before, ...performance.getEntriesByType('mark')]
        .sort((a, b) => a.startTime - b.startTime)
        .map((entry) =>
          'responseEnd' in entry
            ? `${String(Math.round(entry.startTime)).padStart(6)} → ${String(Math.round(entry.responseEnd)).padStart(6)} ms ` +
              `${String(entry.transferSize).padStart(7)} B  ${new URL(entry.name).pathname}`
            : `${String(Math.round(entry.startTime)).padStart(6)}             mark ${entry.name}`,
        ),
    };
  }, mark);

const openApp = (url: string, traceFile?: string) =>
  onThrottledPhone(async (page) => {
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => document.documentElement.dataset.firstScreen === 'ready', undefined, {
      timeout: 60_000,
    });
    const load = await timeline(page, 'first-screen');
    // What "interactive" promises: the screen rendered with its data (no loader or skeleton left
    // in the viewport; sections below the fold load as they come into view; a call that failed
    // shows its error or "coming soon" in place), a tab bar that takes a tap.
    await page.locator('main.content .screen-header__title').waitFor({ timeout: 1000 });
    const busyInView = await page.evaluate(() =>
      [...document.querySelectorAll('.loader, .skeleton, [aria-busy="true"]')].some((element) => {
        const box = element.getBoundingClientRect();
        return box.bottom > 0 && box.top < window.innerHeight && box.width > 0 && box.height > 0;
      }),
    );
    if (busyInView) throw new Error('first screen marked with a loader or skeleton still in view');
    await page.locator('nav.tabbar a[data-tab="wallet"]').click({ trial: true, timeout: 1000 });
    return load;
  }, traceFile);

/** The floor: a bare page whose one script has `bytes` incompressible bytes. */
const startFloorServer = async (frontDir: string) => {
  let script = '';
  const server = createServer((request, response) => {
    if (request.url === '/payload.js') {
      response.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
      response.end(script);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
    response.end('<!doctype html><title>floor</title><script type="module" src="/payload.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const plainUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const front = values.transport === 'h1' ? null : await startTlsFront(plainUrl, frontDir);
  const url = front?.url ?? plainUrl;
  return {
    open: (bytes: number) => {
      const filler = randomBytes(Math.ceil((bytes * 3) / 4)).toString('base64');
      script = `/*${filler.slice(0, Math.max(0, bytes - 60))}*/performance.mark('floor');`;
      return onThrottledPhone(async (page) => {
        await page.goto(url, { waitUntil: 'commit' });
        await page.waitForFunction(() => performance.getEntriesByName('floor').length > 0);
        return timeline(page, 'floor');
      });
    },
    close: async () => {
      await front?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

/** Hop-by-hop headers a proxy does not forward (and HTTP/2 forbids). */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'http2-settings',
];

/**
 * The production transport in front of a plain HTTP server: TLS with HTTP/2 (HTTP/1.1 fallback),
 * every request forwarded as it came. Returns the https URL.
 */
const startTlsFront = async (target: string, dir: string) => {
  const key = join(dir, 'front.key');
  const cert = join(dir, 'front.crt');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
    ],
    { stdio: 'ignore' },
  );
  if (made.status !== 0) throw new Error('openssl could not make the bench certificate');
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const front = http2.createSecureServer(
    { key: readFileSync(key), cert: readFileSync(cert), allowHTTP1: true },
    (request, response) => {
      const headers: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (!name.startsWith(':') && !HOP_BY_HOP.includes(name)) headers[name] = value;
      }
      headers.host = upstream.host;
      const forward = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: request.method,
          path: request.url,
          headers,
          agent,
        },
        (answer) => {
          const out: http.OutgoingHttpHeaders = {};
          for (const [name, value] of Object.entries(answer.headers)) {
            if (!HOP_BY_HOP.includes(name)) out[name] = value;
          }
          response.writeHead(answer.statusCode ?? 502, out);
          answer.pipe(response);
        },
      );
      forward.on('error', () => response.destroy());
      request.pipe(forward);
    },
  );
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://localhost:${(front.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        front.close(() => resolve());
      }),
  };
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? Number.NaN) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number) => `${Math.round(value)} ms`;

const dir = mkdtempSync(join(tmpdir(), 'bench-web-'));
const demo = await startStandalone(
  { PGLITE_DIR: join(dir, 'pglite'), PORT: '0', SANDBOX_PORT: '0', LOG_LEVEL: 'warn', DEMO: '1' },
  { sandboxTickMs: 0, banner: false, log: pino({ level: 'silent' }) },
);
const floorServer = await startFloorServer(dir);
const demoFront = values.transport === 'h1' ? null : await startTlsFront(demo.url, dir);
const appUrl = demoFront?.url ?? demo.url;
try {
  console.log(
    `demo at ${appUrl} (${demoFront ? 'TLS front, HTTP/2' : 'plain HTTP/1.1'}); phone: ${PHONE.viewport.width}×${PHONE.viewport.height}, CPU ${PHONE.cpuSlowdown}× slower, ` +
      `${PHONE.latencyMs} ms latency, ${(PHONE.bytesPerSecond * 8) / 1e6} Mbit/s; load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
  );
  const apps: Load[] = [];
  const floors: Load[] = [];
  for (let run = 1; run <= runs; run += 1) {
    const app = await openApp(appUrl, values.trace && join(values.trace, `web-run-${run}.json`));
    // The floor moves the same bytes; it also spaces the runs beyond the panel's 2 s rate limit.
    const floor = await floorServer.open(app.bytes);
    if (values.waterfall) console.log(app.waterfall.join('\n'));
    apps.push(app);
    floors.push(floor);
    console.log(
      `run ${run}: first screen ${ms(app.ms).padStart(8)}  ${kb(app.bytes).padStart(9)} in ${app.requests} requests` +
        `   floor ${ms(floor.ms).padStart(8)} (${kb(floor.bytes)} in ${floor.requests})   ratio ${(app.ms / floor.ms).toFixed(2)}×`,
    );
  }
  const appMedian = median(apps.map((a) => a.ms));
  const floorMedian = median(floors.map((f) => f.ms));
  console.log(
    `median: first screen ${ms(appMedian)}, floor ${ms(floorMedian)}, ratio ${(appMedian / floorMedian).toFixed(2)}×; ` +
      `${kb(median(apps.map((a) => a.bytes)))} in ${median(apps.map((a) => a.requests))} requests; load average now ${loadavg()[0]?.toFixed(2)}`,
  );
  const pass = appMedian <= TARGET_MS;
  console.log(
    `${pass ? 'PASS' : 'FAIL'}: first screen interactive ${ms(appMedian)} (target ≤ ${TARGET_MS} ms)`,
  );
  process.exitCode = pass ? 0 : 1;
} finally {
  await floorServer.close();
  await demoFront?.close();
  await demo.stop();
  rmSync(dir, { recursive: true, force: true });
}
