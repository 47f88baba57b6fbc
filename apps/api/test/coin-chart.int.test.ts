import type { User } from '@gridbot/db';
import { type SandboxExchangeHandle, startSandboxExchange, waveHistory } from '@gridbot/sandbox';
import { reconcileCoinBot } from '@gridbot/services';
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

const MINUTE = 60_000;
const FIVE_MINUTES = 5 * MINUTE;
const HOUR = 60 * MINUTE;

/** One saved minute of the sandbox's history, as `history.load` takes it. */
type Minute = Parameters<
  ReturnType<SandboxExchangeHandle['exchange']['market']>['history']['load']
>[0][number];

/** A day of one-minute candles around `base` (all the sandbox keeps), ending before the current minute. */
const wave = (base: number): Minute[] =>
  waveHistory(base, { slow: 0.03, slowPeriod: 41, fast: 0.01, fastPeriod: 7, wick: 0.001 });

/** The minutes merged into `size`-long candles aligned to UTC, as the chart answers them. */
const merged = (minutes: Minute[], size: number) => {
  const out: { time: number; open: string; high: string; low: string; close: string }[] = [];
  for (const m of minutes) {
    const time = m.openTime - (m.openTime % size);
    const last = out.at(-1);
    const [high, low, close] = [m.high, m.low, m.close].map((v) => new Decimal(v).toFixed());
    if (last?.time === time) {
      if (new Decimal(high!).gt(last.high)) last.high = high!;
      if (new Decimal(low!).lt(last.low)) last.low = low!;
      last.close = close!;
    } else {
      out.push({ time, open: new Decimal(m.open).toFixed(), high: high!, low: low!, close: close! });
    }
  }
  return out.map((c) => ({ ...c, time: new Date(c.time).toISOString() }));
};

/**
 * The chart's candles of [from + size, to − 2 × size) against the exchange's minutes merged: the
 * first one may have lost minutes the sandbox dropped since, the last ones hold the test's trades.
 */
const expectExchangeCandles = (
  body: { from: string; to: string; candles: { time: string }[] },
  size: number,
  minutes: Minute[],
) => {
  const from = Date.parse(body.from);
  const to = Date.parse(body.to);
  const exchange = new Map(
    merged(
      minutes.filter((m) => m.openTime >= from),
      size,
    ).map((c) => [c.time, c]),
  );
  const firstMinute = minutes[0]!.openTime;
  const compared = body.candles.filter((c) => {
    const time = Date.parse(c.time);
    return time > firstMinute && time >= from + size && time < to - (to % size) - size;
  });
  expect(compared.length).toBeGreaterThan(0);
  for (const candle of compared) expect(candle).toEqual(exchange.get(candle.time));
  return compared.length;
};

const minutesOf = (coin: string) => sandbox.exchange.market(`${coin}USDT`).history.save();

let sandbox: SandboxExchangeHandle;
let t: TestApp;

const market = (base: string, price: string) => ({
  base,
  quote: 'USDT',
  tickSize: '0.0001',
  stepSize: '0.01',
  minNotional: '5',
  feed: { kind: 'fixed' as const, price },
  // The test crosses each order once and expects it filled: whole fills (apps/sandbox liquidity).
  liquidity: 'infinite' as const,
});

beforeAll(async () => {
  sandbox = await startSandboxExchange({
    port: 0,
    tickMs: 0,
    markets: [market('XRP', '1'), market('ADA', '0.5')],
  });
  for (const [coin, base] of [
    ['XRP', 1],
    ['ADA', 0.5],
  ] as const) {
    sandbox.exchange.market(`${coin}USDT`).history.load(wave(base));
  }
  t = await createTestApp({}, { sandboxUrl: sandbox.url });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

type Headers = Record<string, string>;

let users = 0;
/** A user with sandbox keys saved through the API. */
const trader = async (): Promise<{ user: User; headers: Headers }> => {
  users += 1;
  const user = await t.createUser({ username: `chart_${users}`, feeBalance: '100' });
  const headers = await t.authHeader(user);
  const keys = sandbox.control.createAccount({ balances: { USDT: '1000' } });
  const saved = await t.app.inject({
    method: 'POST',
    url: '/profile/api_key',
    headers,
    payload: { apiKey: keys.apiKey, secretKey: keys.secret },
  });
  expect(saved.statusCode).toBe(200);
  return { user, headers };
};

const add = async (headers: Headers, coin: string) =>
  expect(
    (await t.app.inject({ method: 'POST', url: `/portfolio/add_coin/add?data_send=${coin}`, headers }))
      .statusCode,
  ).toBe(200);
const chart = (headers: Headers, query: string) =>
  t.app.inject({ method: 'GET', url: `/portfolio/chart?${query}`, headers });
/** The server allows one chart per second per user. */
const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1050));

type Body = {
  candles: { time: string; open: string; high: string; low: string; close: string }[];
  from: string;
  to: string;
};

/** Candles are in order, aligned to their size, inside [from, to]; their prices are sane. */
const expectCandles = (body: Body, size: number) => {
  const times = body.candles.map((c) => Date.parse(c.time));
  expect(times.every((time) => time % size === 0)).toBe(true);
  expect(times.every((time, i) => i === 0 || time > times[i - 1]!)).toBe(true);
  expect(times[0]).toBeGreaterThanOrEqual(Date.parse(body.from));
  expect(times.at(-1)).toBeLessThanOrEqual(Date.parse(body.to));
  for (const c of body.candles) {
    expect(new Decimal(c.high).gte(Decimal.max(c.open, c.close, c.low))).toBe(true);
    expect(new Decimal(c.low).lte(Decimal.min(c.open, c.close))).toBe(true);
  }
};

describe('GET /portfolio/chart of a trading coin', () => {
  let headers: Headers;
  let botId: number;
  /** The 1d answer after an entry, an averaging buy and a take profit. */
  let body: Body & { fills: unknown[]; ladder: { nextBuy: unknown; takeProfits: unknown[] } } & Record<
      string,
      unknown
    >;

  beforeAll(async () => {
    sandbox.control.setPrice('XRP/USDT', '1');
    const owner = await trader();
    headers = owner.headers;
    await add(headers, 'XRP');
    const bot = await t.prisma.coinBot.findFirstOrThrow({ where: { userId: owner.user.id, coin: 'XRP' } });
    botId = bot.id;
    await t.prisma.coinBot.update({ where: { id: bot.id }, data: { running: true, startedAt: new Date() } });
    const reconcile = async () =>
      expect((await reconcileCoinBot(t.ctx, { coinBotId: bot.id })).status).toBe('done');
    await reconcile(); // entry at 1
    sandbox.control.setPrice('XRP/USDT', '0.99'); // the averaging buy fills
    await reconcile();
    sandbox.control.setPrice('XRP/USDT', '1'); // the second lot's take profit (0.9999) fills
    await reconcile();
    const res = await chart(headers, 'coin=xrp&range=1d');
    expect(res.statusCode).toBe(200);
    body = res.json();
  });

  it("answers a day of the exchange's five-minute candles through the candle cache", async () => {
    expect(body).toMatchObject({
      coin: 'XRP',
      symbol: 'XRP/USDT',
      range: '1d',
      candleSize: '5m',
      lastPrice: '1',
      fillsTruncated: false,
    });
    const to = Date.parse(body.to);
    const from = Date.parse(body.from);
    expect(to - from).toBeGreaterThanOrEqual(1440 * MINUTE);
    expect(to - from).toBeLessThan(1440 * MINUTE + FIVE_MINUTES);
    expectCandles(body, FIVE_MINUTES);
    // A day of five-minute candles: the closed ones (288) and the one still forming.
    expect(body.candles.length).toBeGreaterThanOrEqual(288);
    expect(body.candles.length).toBeLessThanOrEqual(289);
    // The closed candles are the exchange's, merged from its minutes (away from the test's trades).
    expect(expectExchangeCandles(body, FIVE_MINUTES, minutesOf('XRP'))).toBeGreaterThan(270);

    // Stored rows and one coverage range ending at the current candle's open.
    const current = to - (to % FIVE_MINUTES);
    const coverage = await t.prisma.candleCoverage.findMany({
      where: { symbol: 'XRP/USDT', interval: '5m' },
    });
    expect(coverage).toHaveLength(1);
    expect(Number(coverage[0]!.toTime)).toBe(current);
    const stored = await t.prisma.candle.count({ where: { symbol: 'XRP/USDT', interval: '5m' } });
    expect(stored).toBe(body.candles.filter((c) => Date.parse(c.time) < current).length);
  });

  it('answers the fills as the engine stored them: side, price and quantity, oldest first', async () => {
    const rows = await t.prisma.fill.findMany({
      where: { coinBotId: botId },
      include: { order: true },
      orderBy: { at: 'asc' },
    });
    expect(rows).toHaveLength(3);
    expect(body.fills).toEqual(
      rows.map((row) => ({
        time: row.at.toISOString(),
        side: row.order.side,
        kind: row.order.role,
        price: new Decimal(row.price.toString()).toFixed(),
        qty: new Decimal(row.qty.toString()).toFixed(),
        lotNumber: row.order.lotSeq,
      })),
    );
    expect(body.fills.map((f) => [(f as { side: string }).side, (f as { price: string }).price])).toEqual([
      ['buy', '1'],
      ['buy', '0.99'],
      ['sell', '0.9999'],
    ]);
  });

  it("draws the coin page's ladder: its next buy and its take profits", async () => {
    const page = await t.app.inject({ method: 'POST', url: '/portfolio/XRP', headers });
    const { ladder } = page.json();
    expect(body.ladder.nextBuy).toEqual(ladder.buys[0]);
    expect(body.ladder.nextBuy).toMatchObject({ price: '0.99', resting: true });
    expect(body.ladder.takeProfits).toEqual(ladder.takeProfits);
    expect(body.ladder.takeProfits).toEqual([expect.objectContaining({ price: '1.01', resting: true })]);
    expect(body.lastPrice).toBe(ladder.lastPrice);
  });

  it('answers hourly candles for a week and four-hour ones (merged hours) for 30 days', async () => {
    await nextSecond();
    const week = (await chart(headers, 'coin=XRP&range=7d')).json();
    expect(week).toMatchObject({ range: '7d', candleSize: '1h' });
    expectCandles(week, HOUR);
    expectExchangeCandles(week, HOUR, minutesOf('XRP'));
    expect(week.fills).toEqual(body.fills);
    await nextSecond();
    const month = (await chart(headers, 'coin=XRP&range=30d')).json();
    expect(month).toMatchObject({ range: '30d', candleSize: '4h' });
    expectCandles(month, 4 * HOUR);
    expect(month.candles.length).toBeLessThanOrEqual(181);
    expectExchangeCandles(month, 4 * HOUR, minutesOf('XRP'));
    // The 30 days reuse the week's cached hours: each hour stored once.
    const hourRows = await t.prisma.$queryRaw<{ n: bigint; d: bigint }[]>`
      SELECT count(*) AS n, count(DISTINCT open_time) AS d FROM candles
      WHERE symbol = 'XRP/USDT' AND interval = '1h'`;
    expect(hourRows[0]!.n).toBe(hourRows[0]!.d);
  });
});

describe('GET /portfolio/chart', () => {
  it('draws no ladder for a coin without lots, and no fills', async () => {
    const { headers } = await trader();
    await add(headers, 'ADA');
    const res = await chart(headers, 'coin=ADA');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      coin: 'ADA',
      range: '1d',
      fills: [],
      ladder: { nextBuy: null, takeProfits: [] },
      lastPrice: '0.5',
    });
    expect(res.json().candles.length).toBeGreaterThanOrEqual(288);
  });

  it("refuses a coin that is not in the user's portfolio, another user's coin included", async () => {
    const owner = await trader();
    await add(owner.headers, 'ADA');
    const other = await trader();
    const res = await chart(other.headers, 'coin=ADA&range=1d');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('COIN_NOT_FOUND');
    await nextSecond();
    const unknown = await chart(owner.headers, 'coin=DOGE');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('COIN_NOT_FOUND');
  });

  it('refuses a bad range or coin with 400', async () => {
    for (const query of ['coin=XRP&range=2d', 'coin=XRP&range=', 'coin=X-R-P', 'range=1d']) {
      // A user per call: the rate limit (1 per s) counts refused calls too.
      const { headers } = await trader();
      const res = await chart(headers, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('VALIDATION');
    }
  });

  it('needs API keys (422 API_KEYS_MISSING)', async () => {
    const keyless = await t.createUser({ username: 'chart_keyless' });
    const res = await chart(await t.authHeader(keyless), 'coin=XRP&range=1d');
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('API_KEYS_MISSING');
  });

  it('is rate-limited per user: a second call within 1 s answers 429', async () => {
    const { headers } = await trader();
    await add(headers, 'XRP');
    expect((await chart(headers, 'coin=XRP')).statusCode).toBe(200);
    const again = await chart(headers, 'coin=XRP&range=7d');
    expect(again.statusCode).toBe(429);
    expect(again.json().code).toBe('RATE_LIMITED');
  });
});
