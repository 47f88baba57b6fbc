/*
 * What-if backtest benchmark (docs/performance.md#what-if-backtest): POST /portfolio/backtest over
 * 30 days of cached 1-minute candles (43,200), target p95 ≤ 300 ms.
 * `npx tsx scripts/bench/backtest.ts [--requests N]`
 *
 * The candles are data/candles/ETH-BTC-1m.csv, tiled (the file holds ~14,400 minutes) and re-timed
 * as the 43,200 minutes before the current one, stored in the database as if fetched, with their
 * coverage; the exchange (an in-process sandbox) is only asked for keys, markets and the minute
 * that may close during the run. Each request is another user (the contract allows 1 per 3 s per
 * user), through the whole API (Fastify inject: auth, validation, service, serialization).
 * Measured in the same run:
 *   cold     the first request: the candles read from the database once;
 *   warm     N requests answered from the in-process candle memory: p50 / p95;
 *   floor    a bare Fastify route (`{ok:true}`) in the same app, and the replay alone
 *            (simulateGrid + replayReport over the same candles): the ratio warm p50 / replay p50
 *            says how much of an answer is the engine itself.
 * PGlite by default; DATABASE_URL for PostgreSQL.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gridSettingsFromStrings, replayReport, simulateGrid, usdtFigure } from '@gridbot/domain';
import { startSandboxExchange } from '@gridbot/sandbox';
import Decimal from 'decimal.js';
import { createTestApp } from '../../apps/api/test/support/test-app';
import { readCandles } from '../../apps/worker/src/replay/read-candles';

const TARGET_P95_MS = 300;
const MINUTE = 60_000;
const CANDLES = 30 * 1440;
const root = new URL('../../', import.meta.url).pathname;
const FILE = `${root}data/candles/ETH-BTC-1m.csv`;
const { values } = parseArgs({ options: { requests: { type: 'string', default: '40' } } });
const requests = Number(values.requests);
const SETTINGS = { orderSize: '100', stepPct: '1', stepIncreasePct: '0.1', maxTrades: 10 };

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const stats = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
};
const f = (ms: number) => ms.toFixed(1).padStart(7);

/** The file's rows (their own decimal text), tiled to CANDLES and re-timed to end before `to`. */
const tiledRows = (to: number) => {
  const lines = readFileSync(FILE, 'utf8').trim().split('\n').slice(1);
  const rows = [];
  for (let i = 0; i < CANDLES; i++) {
    const [, open, high, low, close, volume] = lines[i % lines.length]!.split(',');
    rows.push({
      openTime: BigInt(to - (CANDLES - i) * MINUTE),
      open: new Decimal(open!).toFixed(),
      high: new Decimal(high!).toFixed(),
      low: new Decimal(low!).toFixed(),
      close: new Decimal(close!).toFixed(),
      volume: new Decimal(volume!).toFixed(),
    });
  }
  return rows;
};

const sandbox = await startSandboxExchange({
  port: 0,
  tickMs: 0,
  markets: [
    {
      base: 'ETH',
      quote: 'USDT',
      tickSize: '0.000001',
      stepSize: '0.001',
      minNotional: '5',
      feed: { kind: 'fixed', price: '0.1' },
    },
  ],
});
const t = await createTestApp(
  { LOG_LEVEL: 'silent' },
  {
    sandboxUrl: sandbox.url,
    routes: (app) => app.get('/bench/bare', { config: { rateLimit: false } }, async () => ({ ok: true })),
  },
);
let failed = false;
try {
  const now = Date.now();
  const to = now - (now % MINUTE);
  const key = { venue: 'binance:sandbox', symbol: 'ETH/USDT', interval: '1m' };
  const rows = tiledRows(to);
  for (let at = 0; at < rows.length; at += 5000) {
    await t.prisma.candle.createMany({ data: rows.slice(at, at + 5000).map((r) => ({ ...key, ...r })) });
  }
  await t.prisma.candleCoverage.create({
    data: { ...key, fromTime: BigInt(to - CANDLES * MINUTE), toTime: BigInt(to) },
  });

  const headers: Record<string, string>[] = [];
  for (let i = 0; i <= requests; i++) {
    const user = await t.createUser({ username: `bench_bt_${i}` });
    const h = await t.authHeader(user);
    const keys = sandbox.control.createAccount({ balances: { USDT: '100' } });
    const saved = await t.app.inject({
      method: 'POST',
      url: '/profile/api_key',
      headers: h,
      payload: { apiKey: keys.apiKey, secretKey: keys.secret },
    });
    if (saved.statusCode !== 200) throw new Error(`keys not saved: ${saved.body}`);
    headers.push(h);
  }

  const call = async (h: Record<string, string>) => {
    const started = process.hrtime.bigint();
    const res = await t.app.inject({
      method: 'POST',
      url: '/portfolio/backtest',
      headers: h,
      payload: { coin: 'ETH', ...SETTINGS, window: '30d_1m' },
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (res.statusCode !== 200) throw new Error(`backtest ${res.statusCode}: ${res.body}`);
    return { ms, body: res.json() };
  };
  const cold = await call(headers[0]!);
  const warm: number[] = [];
  let last = cold.body;
  for (let i = 1; i <= requests; i++) {
    const { ms, body } = await call(headers[i]!);
    warm.push(ms);
    last = body;
  }

  const bare: number[] = [];
  for (let i = 0; i < requests; i++) {
    const started = process.hrtime.bigint();
    await t.app.inject({ method: 'GET', url: '/bench/bare' });
    bare.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  // The replay CLI's reader over the same candles written as a file: its figures must be the answer's.
  const tiles = Math.ceil(CANDLES / readCandles(FILE).length);
  const csv = join(mkdtempSync(join(tmpdir(), 'bench-backtest-')), 'ETH-USDT-1m.csv');
  const lines = rows.map((r) => `${r.openTime},${r.open},${r.high},${r.low},${r.close},${r.volume}`);
  writeFileSync(csv, `time,open,high,low,close,volume\n${lines.join('\n')}\n`);
  const replayInput = {
    candles: readCandles(csv),
    settings: gridSettingsFromStrings(SETTINGS),
    feePct: new Decimal('0.1'),
  };
  const cli = replayReport(simulateGrid(replayInput));
  if (last.to === new Date(to).toISOString() && usdtFigure(cli.realizedPnl) !== last.realizedPnl) {
    throw new Error(`the answer's realized ${last.realizedPnl} differs from the CLI's ${cli.realizedPnl}`);
  }
  const replay: number[] = [];
  for (let i = 0; i < requests; i++) {
    const started = process.hrtime.bigint();
    replayReport(simulateGrid(replayInput));
    replay.push(Number(process.hrtime.bigint() - started) / 1e6);
  }

  const w = stats(warm);
  const b = stats(bare);
  const r = stats(replay);
  console.log(
    `${last.candles} candles (${FILE.split('/').pop()} tiled ×${tiles}), ${last.buys} buys, ${last.sells} sells, realized ${last.realizedPnl} USDT; ${requests} requests, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`,
  );
  console.log(`${'ms'.padEnd(34)}     p50     p95`);
  console.log(`${'cold (DB read once)'.padEnd(34)} ${f(cold.ms)}`);
  console.log(`${'backtest (candles in memory)'.padEnd(34)} ${f(w.p50)} ${f(w.p95)}`);
  console.log(`${'floor: bare Fastify route'.padEnd(34)} ${f(b.p50)} ${f(b.p95)}`);
  console.log(`${'floor: replay alone (CLI reader)'.padEnd(34)} ${f(r.p50)} ${f(r.p95)}`);
  console.log(`ratio backtest p50 / replay p50: ${(w.p50 / r.p50).toFixed(2)}`);
  failed = w.p95 > TARGET_P95_MS || cold.ms > TARGET_P95_MS * 10;
  console.log(
    `\nbacktest: p95 ${w.p95.toFixed(1)} ms ${failed ? '>' : '≤'} ${TARGET_P95_MS} ms → ${failed ? 'FAIL' : 'PASS'}`,
  );
} finally {
  await t.close();
  await sandbox.close();
}
process.exitCode = failed ? 1 : 0;
