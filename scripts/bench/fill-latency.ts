/*
 * Fill latency benchmark (docs/performance.md, docs/grid.md#fill-latency): target p99 ≤ 3 s from a
 * resting order's fill on the exchange to the coin bot's next orders placed.
 * `npx tsx scripts/bench/fill-latency.ts [--seconds S] [--tick-ms T] [--log FILE]` (--log: the
 * launcher's info log, with a `fill latency` line per fill, written to FILE).
 *
 * Runs the standalone composition (`npm start`: sandbox replaying real candles, API, worker on the
 * in-process queue, demo coin bots on each exchange's dialect: Binance, Bybit, OKX) on a temp data
 * folder for S seconds (default 90), then reads, per exchange, the fills of resting (limit) orders
 * recorded during the run, one per order, from the trade that completed it (a partly filled order is
 * booked when it completes, docs/grid.md#remainders; from its first trade is printed beside):
 *   recorded  trade time on the exchange → fill recorded by reconcile;
 *   placed    trade time → the reconcile that recorded it converged (next orders placed).
 * Floor, measured in the same run: the sandbox's own order-status round trip (a bare signed
 * GET /api/v3/order over HTTP), once per 200 ms; the ratio p99 / floor p99 is printed.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createExchangeClient } from '@gridbot/exchange';
import { pino } from 'pino';
import { startStandalone } from '../../apps/standalone/src/start-standalone';

const TARGET_P99_MS = 3000;
const TUNING = /^(SCAN_|SWEEP_|WORKER_CONCURRENCY$)/;
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '90' },
    'tick-ms': { type: 'string', default: '250' },
    log: { type: 'string' },
  },
});
const seconds = Number(values.seconds);

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
const describe = (label: string, xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const f = (ms: number) => `${Math.round(ms)} ms`.padStart(9);
  console.log(
    `${label.padEnd(28)} n=${String(s.length).padStart(4)}  p50 ${f(quantile(s, 0.5))}  p90 ${f(quantile(s, 0.9))}  p99 ${f(quantile(s, 0.99))}  max ${f(s.at(-1) ?? Number.NaN)}`,
  );
  return { p99: quantile(s, 0.99), n: s.length };
};

const dir = mkdtempSync(join(tmpdir(), 'bench-fill-latency-'));
const running = await startStandalone(
  {
    // The scan's and worker's tuning pass through, to compare settings (e.g. SCAN_RANGE_MAX_SYMBOLS=0).
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => TUNING.test(name))),
    PGLITE_DIR: join(dir, 'pglite'),
    PORT: '0',
    SANDBOX_PORT: '0',
    LOG_LEVEL: 'warn',
    DEMO: '1',
  },
  {
    sandboxTickMs: Number(values['tick-ms']),
    banner: false,
    log: values.log ? pino({ level: 'info' }, pino.destination(values.log)) : pino({ level: 'warn' }),
  },
);
try {
  const startedAt = new Date();
  const { sandbox } = running;
  // The floor's own account, with one order resting far below the price to ask about.
  const market = sandbox.control.markets()[0]!;
  const keys = sandbox.control.createAccount({ balances: { USDT: '1000' } });
  const client = createExchangeClient({
    exchange: 'binance',
    mode: 'sandbox',
    sandboxUrl: sandbox.url,
    ...keys,
  });
  await client.loadMarkets();
  const symbol = `${market.base}/${market.quote}`;
  const price = client.priceToPrecision(symbol, (Number(market.price) / 2).toString());
  const clientOrderId = `bench${randomBytes(6).toString('hex')}`;
  await client.placeOrder({
    symbol,
    side: 'buy',
    type: 'limit',
    price,
    amount: client.amountForQuote(symbol, '20', price),
    clientOrderId,
  });
  const orderStatus = async () => {
    const query = `symbol=${market.base}${market.quote}&origClientOrderId=${clientOrderId}&timestamp=${Date.now()}`;
    const signature = createHmac('sha256', keys.secret).update(query).digest('hex');
    const t0 = performance.now();
    const response = await fetch(`${sandbox.url}/api/v3/order?${query}&signature=${signature}`, {
      headers: { 'X-MBX-APIKEY': keys.apiKey },
    });
    await response.json();
    if (!response.ok) throw new Error(`order status answered ${response.status}`);
    return performance.now() - t0;
  };

  console.log(`standalone demo on replayed candles for ${seconds} s (tick ${values['tick-ms']} ms)…`);
  const floor: number[] = [];
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    floor.push(await orderStatus());
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  // Per exchange: the demo user trades on each dialect of the sandbox (Binance, Bybit, OKX).
  // One row per filled order: a partly filled order is booked when it completes (docs/grid.md#remainders),
  // so its latency runs from the trade that completed it; from its first trade is shown beside.
  const fills = await running.ctx.prisma.$queryRaw<
    {
      at: Date;
      first_at: Date;
      trades: number;
      recorded_at: Date;
      converged_at: Date | null;
      type: string;
      exchange: string;
    }[]
  >`SELECT MAX(f.at) AS at, MIN(f.at) AS first_at, COUNT(*)::int AS trades, MAX(f.recorded_at) AS recorded_at,
           MAX(f.converged_at) AS converged_at, o.type, a.exchange
      FROM fills f
      JOIN orders o ON o.id = f.order_id
      JOIN coin_bots b ON b.id = f.coin_bot_id
      JOIN exchange_accounts a ON a.id = b.exchange_account_id
     WHERE f.recorded_at >= ${startedAt}::timestamptz
     GROUP BY f.order_id, o.type, a.exchange`;
  const floorStats = describe('floor: order-status REST', floor);
  const verdicts: string[] = [];
  for (const exchange of ['binance', 'bybit', 'okx']) {
    const mine = fills.filter((f) => f.exchange === exchange);
    const resting = mine.filter((f) => f.type === 'limit');
    const waiting = resting.filter((f) => f.converged_at === null).length;
    const parts = resting.filter((f) => f.trades > 1).length;
    console.log(
      `${exchange}: filled orders ${mine.length} (${resting.length} resting limit orders, ${parts} filled in parts; market entries left out)`,
    );
    const recorded = describe(
      `${exchange} fill → recorded`,
      resting.map((f) => f.recorded_at.getTime() - f.at.getTime()),
    );
    const placed = describe(
      `${exchange} fill → next placed`,
      resting.flatMap((f) => (f.converged_at ? [f.converged_at.getTime() - f.at.getTime()] : [])),
    );
    describe(
      `${exchange} first trade → placed`,
      resting.flatMap((f) => (f.converged_at ? [f.converged_at.getTime() - f.first_at.getTime()] : [])),
    );
    if (waiting > 0) console.log(`${waiting} fill(s) still waiting for their next orders at the end`);
    console.log(
      `${exchange} ratio (fill → placed p99 / floor p99): ${(placed.p99 / floorStats.p99).toFixed(0)}×  recorded p99 ${Math.round(recorded.p99)} ms`,
    );
    const pass = placed.n > 0 && placed.p99 <= TARGET_P99_MS;
    verdicts.push(
      `${pass ? 'PASS' : 'FAIL'}: ${exchange} fill → next orders placed p99 ${Math.round(placed.p99)} ms (target ≤ ${TARGET_P99_MS} ms${placed.n === 0 ? ', no fill measured' : ''})`,
    );
  }
  for (const line of verdicts) console.log(line);
  process.exitCode = verdicts.every((line) => line.startsWith('PASS')) ? 0 : 1;
} finally {
  await running.stop();
  rmSync(dir, { recursive: true, force: true });
}
