import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';
import { bookDeposit } from './support/wallet-fixtures';

/**
 * The operational routes (docs/operations.md): health and readiness for probes, Prometheus metrics,
 * and the request id every answer and log line carries.
 */

const METRICS_TOKEN = 'scrape-9f3a1c7e5b2d4086';
const webDist = mkdtempSync(join(tmpdir(), 'web-dist-'));
writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>mini app</title>');

/** Every JSON line the app logs. */
const logLines: Record<string, unknown>[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});

let t: TestApp;
let secured: TestApp;
beforeAll(async () => {
  [t, secured] = await Promise.all([
    createTestApp({}, { webDist, logger: pino({ level: 'info' }, logStream) }),
    createTestApp({ METRICS_TOKEN }),
  ]);
});
afterAll(async () => {
  await Promise.all([t?.close(), secured?.close()]);
});

/** The value of one series in the Prometheus text format (0 when absent). */
const sample = (text: string, series: string): number => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
};

const scrape = async (app: TestApp, headers: Record<string, string> = {}) => {
  const res = await app.app.inject({ method: 'GET', url: '/metrics', headers });
  expect(res.statusCode).toBe(200);
  return res.body;
};

describe('/healthz and /readyz', () => {
  it('answer without a token, even to a browser, and never meet the rate limit', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/healthz', headers: { accept: 'text/html' } });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toMatchObject({ status: 'ok' });

    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    const expected = process.env.REDIS_URL
      ? { database: 'ok', redis: 'ok', queue: 'ok' }
      : { database: 'ok', queue: 'ok' };
    expect(ready.json()).toEqual({ status: 'ready', failing: [], checks: expected });

    // More probes than the default budget of 300 a minute per address: none is refused.
    const answers = await Promise.all(
      Array.from({ length: 320 }, () => t.app.inject({ method: 'GET', url: '/healthz' })),
    );
    expect(answers.filter((a) => a.statusCode !== 200)).toHaveLength(0);
  });

  it('are not contracts: absent from the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    for (const path of ['/healthz', '/readyz', '/metrics']) expect(doc.paths[path]).toBeUndefined();
  });
});

const scrapeToken = { authorization: `Bearer ${METRICS_TOKEN}` };

describe('/metrics', () => {
  it('exposes the request latency and the ledger transfers a real deposit wrote', async () => {
    // One registry per process: what `t` counts, `secured` (with METRICS_TOKEN) exposes.
    const before = await scrape(secured, scrapeToken);
    const user = await t.createUser({ username: 'metrics_user' });
    await bookDeposit(t.prisma, user, '12.5');
    await t.app.inject({ method: 'GET', url: '/healthz' });

    const after = await scrape(secured, scrapeToken);
    const deposits = 'gridbot_ledger_transfers_total{type="deposit"}';
    expect(sample(after, deposits)).toBe(sample(before, deposits) + 1);
    const health =
      'gridbot_http_request_duration_seconds_count{route="/healthz",method="GET",status_code="200"}';
    expect(sample(after, health)).toBeGreaterThan(sample(before, health));
    // Node's own figures and the queues' depth are part of every scrape.
    expect(after).toContain('gridbot_process_resident_memory_bytes');
    expect(after).toMatch(/gridbot_queue_jobs\{queue="grid\.reconcile\.v1",state="waiting"\} \d+/);
  });

  it('asks for the bearer token when METRICS_TOKEN is set', async () => {
    const missing = await secured.app.inject({ method: 'GET', url: '/metrics' });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ error: true, code: 'UNAUTHORIZED' });
    const wrong = await secured.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer not-the-token-at-all' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(await scrape(secured, scrapeToken)).toContain('gridbot_ledger_transfers_total');
    // Health stays open: probes carry no token.
    expect((await secured.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('is not served on the API port outside demo mode without METRICS_TOKEN', async () => {
    for (const headers of [{}, scrapeToken, { accept: 'application/json' }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('gridbot_');
    }
    // A browser navigation gets the mini app, never the figures.
    const page = await t.app.inject({ method: 'GET', url: '/metrics', headers: { accept: 'text/html' } });
    expect(page.body).not.toContain('gridbot_');
  });
});

describe('request ids', () => {
  it('a sane incoming X-Request-Id is kept, returned and on every log line of the request', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/home/pnl/daily',
      headers: { 'x-request-id': 'edge-7f3a.42' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['x-request-id']).toBe('edge-7f3a.42');
    const lines = logLines.filter((l) => l.reqId === 'edge-7f3a.42');
    expect(lines.map((l) => l.msg)).toEqual(
      expect.arrayContaining(['incoming request', 'request completed']),
    );
  });

  it('a missing or unusable one is replaced by a new UUID', async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const none = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(none.headers['x-request-id']).toMatch(uuid);
    for (const bad of ['has spaces in it', 'x'.repeat(200), 'new\\nline']) {
      const res = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': bad } });
      expect(res.headers['x-request-id']).toMatch(uuid);
    }
    const other = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(other.headers['x-request-id']).not.toBe(none.headers['x-request-id']);
  });
});
