import {
  allocateCandles,
  CLOSE,
  HIGH,
  LOW,
  OPEN,
  replayReport,
  setCandlePrice,
  simulateGrid,
  usdtFigure,
} from '@gridbot/domain';
import { type SandboxExchangeHandle, startSandboxExchange, waveHistory } from '@gridbot/sandbox';
import { backtestCoin } from '@gridbot/services';
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

const MINUTE = 60_000;

/** One saved minute of the sandbox's history, as `history.load` takes it. */
type Minute = Parameters<
  ReturnType<SandboxExchangeHandle['exchange']['market']>['history']['load']
>[0][number];

/** A day of one-minute candles ending before the current minute: a wave wide enough to fill the grid. */
const wave = (base: number, phase: number): Minute[] =>
  waveHistory(base, { slow: 0.06, slowPeriod: 37, fast: 0.02, fastPeriod: 5, wick: 0.002, phase });

/** What the replay says over the seeded candles of [from, to), straight from the engine. */
const direct = (minutes: Minute[], from: number, to: number, settings: typeof SETTINGS) => {
  const picked = minutes.filter((m) => m.openTime >= from && m.openTime < to);
  const series = allocateCandles(picked.length);
  picked.forEach((m, i) => {
    series.time[i] = m.openTime;
    setCandlePrice(series, i, OPEN, new Decimal(m.open).toFixed());
    setCandlePrice(series, i, HIGH, new Decimal(m.high).toFixed());
    setCandlePrice(series, i, LOW, new Decimal(m.low).toFixed());
    setCandlePrice(series, i, CLOSE, new Decimal(m.close).toFixed());
  });
  const report = replayReport(
    simulateGrid({
      candles: series,
      settings: {
        orderSize: new Decimal(settings.orderSize),
        stepPct: new Decimal(settings.stepPct),
        stepIncreasePct: new Decimal(settings.stepIncreasePct),
        maxTrades: settings.maxTrades,
      },
      feePct: new Decimal('0.1'),
    }),
  );
  return { report, count: picked.length };
};

const SETTINGS = { orderSize: '10', stepPct: '1', stepIncreasePct: '0.5', maxTrades: 6 };

let sandbox: SandboxExchangeHandle;
let downSandbox: SandboxExchangeHandle;
let t: TestApp;
let tDown: TestApp;
const history: Record<string, Minute[]> = {};

const market = (base: string, price: string) => ({
  base,
  quote: 'USDT',
  tickSize: '0.0001',
  stepSize: '0.1',
  minNotional: '5',
  feed: { kind: 'fixed' as const, price },
});

beforeAll(async () => {
  sandbox = await startSandboxExchange({
    port: 0,
    tickMs: 0,
    markets: [market('XRP', '0.5'), market('ADA', '0.4'), market('DOT', '6')],
  });
  for (const [coin, base, phase] of [
    ['XRP', 0.5, 0],
    ['ADA', 0.4, 11],
    ['DOT', 6, 23],
  ] as const) {
    history[coin] = wave(base, phase);
    sandbox.exchange.market(`${coin}USDT`).history.load(history[coin]!);
  }
  downSandbox = await startSandboxExchange({ port: 0, tickMs: 0, markets: [market('XRP', '0.5')] });
  t = await createTestApp({}, { sandboxUrl: sandbox.url });
  tDown = await createTestApp({}, { sandboxUrl: downSandbox.url });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await tDown?.close();
  await sandbox?.close();
});

let users = 0;
/** A user with sandbox keys saved through the API. */
const trader = async (app: TestApp = t, exchange: SandboxExchangeHandle = sandbox) => {
  users += 1;
  const user = await app.createUser({ username: `bt_${users}` });
  const headers = await app.authHeader(user);
  const keys = exchange.control.createAccount({ balances: { USDT: '100' } });
  const saved = await app.app.inject({
    method: 'POST',
    url: '/profile/api_key',
    headers,
    payload: { apiKey: keys.apiKey, secretKey: keys.secret },
  });
  expect(saved.statusCode).toBe(200);
  return { user, headers };
};

const backtest = (headers: Record<string, string>, body: object, app: TestApp = t) =>
  app.app.inject({ method: 'POST', url: '/portfolio/backtest', headers, payload: body });

const coverage = (symbol: string) =>
  t.prisma.candleCoverage.findMany({ where: { symbol }, orderBy: { fromTime: 'asc' } });
const candleCount = (symbol: string) => t.prisma.candle.count({ where: { symbol } });

describe('POST /portfolio/backtest', () => {
  it('replays the settings over the exchange candles with the live engine: the same figures as simulateGrid', async () => {
    const { headers } = await trader();
    const res = await backtest(headers, { coin: 'xrp', ...SETTINGS, window: '7d_1m' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const from = Date.parse(body.from);
    const to = Date.parse(body.to);
    const { report, count } = direct(history.XRP!, 0, to, SETTINGS);
    expect(body.candles).toBe(count);
    expect(count).toBeGreaterThan(1400);
    expect(from).toBe(history.XRP![0]!.openTime);
    expect(body).toMatchObject({
      coin: 'XRP',
      window: '7d_1m',
      feePct: '0.1',
      realizedPnl: usdtFigure(report.realizedPnl),
      closedDeals: report.sells,
      profitableDeals: report.profitableTrades,
      buys: report.buys,
      sells: report.sells,
      openLots: report.openLots,
      openQty: report.openQty,
      unrealizedPnl: usdtFigure(report.unrealizedPnl),
      maxOpenLots: report.maxOpenLots,
      capitalUsed: usdtFigure(report.capitalUsed),
      fillsTruncated: report.fills.length > 500,
    });
    expect(report.sells).toBeGreaterThan(0);
    expect(body.fills).toEqual(
      report.fills.slice(0, 500).map((f) => ({ time: f.time, side: f.side, price: f.price, qty: f.qty })),
    );
    // Money as decimal strings; the capital at the limit covers every lot the replay held.
    expect(typeof body.realizedPnl).toBe('string');
    expect(new Decimal(body.capitalAtLimit).gte(body.capitalUsed)).toBe(true);
    expect(body.realizedPnlPct).toBe(
      new Decimal(report.realizedPnl).mul(100).div(body.capitalAtLimit).toDecimalPlaces(4).toFixed(),
    );
    expect(new Decimal(body.worstDrawdown.usdt).lte(0)).toBe(true);
    if (body.worstDrawdown.at) expect(new Decimal(body.worstDrawdown.usdt).lt(0)).toBe(true);
    expect(body.prices.length).toBeLessThanOrEqual(500);
    expect(body.prices.at(-1).close).toBe(new Decimal(history.XRP!.at(-1)!.close).toFixed());
    // The current (open) candle is never stored.
    const stored = await t.prisma.candle.findMany({
      where: { symbol: 'XRP/USDT' },
      select: { openTime: true },
    });
    expect(stored.every((c) => Number(c.openTime) < to)).toBe(true);
  });

  it('defaults to 30 days of 5-minute candles, as the exchange aggregates them', async () => {
    const { headers } = await trader();
    const res = await backtest(headers, { coin: 'XRP', ...SETTINGS });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.window).toBe('30d_5m');
    expect(Date.parse(body.to) % (5 * MINUTE)).toBe(0);
    expect(Date.parse(body.to) - Date.parse(body.from)).toBeLessThanOrEqual(30 * 1440 * MINUTE);
    // A day of minutes is 288 five-minute candles (289 when the day starts mid-candle).
    expect(body.candles).toBeGreaterThanOrEqual(287);
    expect(body.candles).toBeLessThanOrEqual(289);
    expect(await t.prisma.candle.count({ where: { symbol: 'XRP/USDT', interval: '5m' } })).toBe(body.candles);
  });

  it('answers a repeat from the cache: nothing new stored, the same answer (also for another user)', async () => {
    const a = await trader();
    const b = await trader();
    const body = { coin: 'XRP', ...SETTINGS, window: '7d_1m' };
    const first = await backtest(a.headers, body);
    const rows = await candleCount('XRP/USDT');
    const ranges = await coverage('XRP/USDT');
    const second = await backtest(b.headers, body);
    expect(second.statusCode).toBe(200);
    expect(await candleCount('XRP/USDT')).toBe(rows);
    expect(await coverage('XRP/USDT')).toEqual(ranges);
    if (first.json().to === second.json().to) expect(second.json()).toEqual(first.json());
  });

  it('refreshes incrementally: a later window fetches only the tail since the last complete candle', async () => {
    const { user, headers } = await trader();
    const real = Date.now();
    const earlier = real - (real % MINUTE) - 30 * MINUTE;
    const input = { userId: user.id, coin: 'DOT', ...SETTINGS, window: '7d_1m' as const };
    const old = await backtestCoin({ ...t.ctx, clock: { now: () => new Date(earlier) } }, input);
    expect(Date.parse(old.to)).toBe(earlier);
    const before = await coverage('DOT/USDT');
    expect(before.map((r) => Number(r.toTime))).toEqual([earlier]);

    const res = await backtest(headers, { coin: 'DOT', ...SETTINGS, window: '7d_1m' });
    expect(res.statusCode).toBe(200);
    const to = Date.parse(res.json().to);
    const after = await coverage('DOT/USDT');
    // The one range grew by the tail: [to_before, to) was the only range fetched.
    expect(after).toHaveLength(1);
    expect(after[0]!.fromTime).toBe(before[0]!.fromTime);
    expect(Number(after[0]!.toTime)).toBe(to);
    const { report, count } = direct(history.DOT!, Date.parse(res.json().from), to, SETTINGS);
    expect(await candleCount('DOT/USDT')).toBe(history.DOT!.filter((m) => m.openTime < to).length);
    expect(res.json()).toMatchObject({
      candles: count,
      realizedPnl: usdtFigure(report.realizedPnl),
      buys: report.buys,
    });
  });

  it('serves concurrent identical requests without duplicate rows or failures', async () => {
    const callers = await Promise.all([trader(), trader(), trader()]);
    const body = { coin: 'ADA', ...SETTINGS, window: '7d_1m' };
    const answers = await Promise.all(callers.map((c) => backtest(c.headers, body)));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const to = Date.parse(answers[0]!.json().to);
    const rows = await t.prisma.$queryRaw<{ n: bigint; d: bigint }[]>`
      SELECT count(*) AS n, count(DISTINCT open_time) AS d FROM candles WHERE symbol = 'ADA/USDT'`;
    expect(rows[0]!.n).toBe(rows[0]!.d);
    expect(Number(rows[0]!.n)).toBe(history.ADA!.filter((m) => m.openTime < to).length);
    expect(await coverage('ADA/USDT')).toHaveLength(1);
  });

  it('refuses bad input with 400 in the user language, changing nothing', async () => {
    const rows = await t.prisma.candle.count();
    for (const body of [
      { coin: 'XRP', ...SETTINGS, window: '1d_1s' },
      { coin: 'XRP', ...SETTINGS, orderSize: '-5' },
      { coin: 'XRP', ...SETTINGS, stepPct: '10', stepIncreasePct: '10', maxTrades: 50 },
      { coin: 'X-R-P', ...SETTINGS },
      { ...SETTINGS },
    ]) {
      // A user per call: the rate limit (1 per 3 s) counts refused calls too.
      const { headers } = await trader();
      const res = await backtest(headers, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('VALIDATION');
    }
    expect(await t.prisma.candle.count()).toBe(rows);
  });

  it('needs API keys (422 API_KEYS_MISSING, in the user language) and a listed coin (422 COIN_NOT_LISTED)', async () => {
    const keyless = await t.createUser({ username: 'bt_keyless' });
    const headers = await t.authHeader(keyless);
    await t.app.inject({ method: 'POST', url: '/home/config/localization/set?data=ru', headers });
    const res = await backtest(headers, { coin: 'XRP', ...SETTINGS });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'API_KEYS_MISSING',
      detail:
        'Сначала подключите API-ключи биржи: монеты торгуются и тестируются на вашем собственном аккаунте биржи.',
    });

    const { headers: h2 } = await trader();
    const unlisted = await backtest(h2, { coin: 'NOPE', ...SETTINGS });
    expect(unlisted.statusCode).toBe(422);
    expect(unlisted.json().code).toBe('COIN_NOT_LISTED');
  });

  it('answers 502 EXCHANGE_UNAVAILABLE when the exchange is down', async () => {
    const { headers } = await trader(tDown, downSandbox);
    await downSandbox.close();
    const res = await backtest(headers, { coin: 'XRP', ...SETTINGS }, tDown);
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe('EXCHANGE_UNAVAILABLE');
  });

  it('is rate-limited per user: a second call within 3 s answers 429', async () => {
    const { headers } = await trader();
    const body = { coin: 'XRP', ...SETTINGS, window: '7d_1m' };
    expect((await backtest(headers, body)).statusCode).toBe(200);
    const again = await backtest(headers, body);
    expect(again.statusCode).toBe(429);
    expect(again.json().code).toBe('RATE_LIMITED');
  });
});
