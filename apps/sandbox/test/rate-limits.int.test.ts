import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IN_FLIGHT_MS } from '../src/exchange/rate-limits';
import { type SandboxExchangeHandle, startSandboxExchange } from '../src/index';
import { type BinanceJson, type Credentials, clearOfWindowEnd } from './support/binance-http';
import { FIXED_BTC_USDT, REPLAYED_ETH_USDT } from './support/markets';

/*
 * Binance's rate limits over HTTP (docs/venues/binance.md#rate-limits, #bans): weights from
 * packages/venues, 429 + Retry-After over a pool, 418 for an IP that keeps sending, -1015 over the
 * account's ORDERS pools, and the control API that lowers limits and forces answers.
 */

let sandbox: SandboxExchangeHandle;
let creds: Credentials;

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: BinanceJson };

/**
 * One HTTP request from a chosen loopback address (the whole of 127/8 is this host), so a test can
 * be two IPs.
 */
const call = (
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  options: { from?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const url = new URL(path, sandbox.url);
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        localAddress: options.from ?? '127.0.0.1',
        headers: {
          ...(options.body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          ...options.headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text ? JSON.parse(text) : undefined,
          }),
        );
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });

const control = (method: 'GET' | 'POST', path: string, body?: unknown) =>
  fetch(`${sandbox.url}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as BinanceJson }));

const signedCall = (
  method: 'GET' | 'POST',
  path: string,
  who: Credentials,
  params: Record<string, string> = {},
  from?: string,
) => {
  const query = new URLSearchParams({ ...params, timestamp: String(Date.now()) }).toString();
  const payload = `${query}&signature=${createHmac('sha256', who.secret).update(query).digest('hex')}`;
  const headers = { 'x-mbx-apikey': who.apiKey };
  return method === 'POST'
    ? call('POST', path, { body: payload, headers, ...(from ? { from } : {}) })
    : call('GET', `${path}?${payload}`, { headers, ...(from ? { from } : {}) });
};

const usedWeight = (a: Answer) => Number(a.headers['x-mbx-used-weight-1m']);

const order = (price: string) => ({
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GTC',
  quantity: '0.001',
  price,
});

beforeAll(async () => {
  sandbox = await startSandboxExchange({ port: 0, markets: [FIXED_BTC_USDT, REPLAYED_ETH_USDT], tickMs: 0 });
  creds = sandbox.control.createAccount({ balances: { USDT: '100000' } });
});
afterAll(async () => sandbox?.close());
beforeEach(() => sandbox.control.resetLimits());

describe('request weight (packages/venues, rest-api.md "Weight")', () => {
  it('charges each endpoint its documented weight: 24hr with a symbols list weighs 2, not 80', async () => {
    await clearOfWindowEnd(60_000);
    const first = await call('GET', '/api/v3/ping');
    expect(usedWeight(first)).toBe(1);
    const listed = await call(
      'GET',
      `/api/v3/ticker/24hr?symbols=${encodeURIComponent('["BTCUSDT","ETHUSDT"]')}`,
    );
    expect(listed.status).toBe(200);
    expect(usedWeight(listed)).toBe(1 + 2);
    const every = await call('GET', '/api/v3/ticker/24hr');
    expect(usedWeight(every)).toBe(3 + 80);
    const info = await call('GET', '/api/v3/exchangeInfo');
    expect(usedWeight(info)).toBe(83 + 20);
    expect(info.body.rateLimits).toEqual([
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 6000 },
      { rateLimitType: 'RAW_REQUESTS', interval: 'MINUTE', intervalNum: 5, limit: 61000 },
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 100 },
      { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: 200000 },
    ]);
    // Per IP: another address starts from nothing.
    expect(usedWeight(await call('GET', '/api/v3/ping', { from: '127.0.0.2' }))).toBe(1);
  });
});

describe('over the limit (rest-api.md#ip-limits)', () => {
  it('answers 429 with Retry-After past the weight limit, then bans (418) an IP that keeps sending', async () => {
    await clearOfWindowEnd(60_000);
    const { body } = await control('POST', '/_sandbox/limits', { REQUEST_WEIGHT: 100 });
    expect(body.limits).toMatchObject({ REQUEST_WEIGHT: 100, ORDERS_10S: 100 });
    const info = await call('GET', '/api/v3/exchangeInfo');
    expect(info.body.rateLimits[0]).toMatchObject({ rateLimitType: 'REQUEST_WEIGHT', limit: 100 });
    for (let i = 0; i < 4; i++) expect((await call('GET', '/api/v3/exchangeInfo')).status).toBe(200);

    const over = await call('GET', '/api/v3/exchangeInfo');
    expect(over.status).toBe(429);
    const retryAfter = Number(over.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(over.body).toEqual({
      code: -1003,
      msg: 'Too much request weight used; current limit is 100 request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.',
    });
    expect(usedWeight(over)).toBe(100);
    // Another IP is not concerned.
    expect((await call('GET', '/api/v3/ping', { from: '127.0.0.3' })).status).toBe(200);

    // Sending again inside Retry-After, later than a request in flight could arrive: a ban of 2 minutes.
    await sleep(IN_FLIGHT_MS + 100);
    const banned = await call('GET', '/api/v3/ping');
    expect(banned.status).toBe(418);
    expect(Number(banned.headers['retry-after'])).toBe(120);
    expect(banned.body.code).toBe(-1003);
    expect(banned.body.msg).toMatch(
      /^Way too much request weight used; IP banned until \d{13}\. Please use WebSocket Streams for live updates to avoid bans\.$/,
    );
    const until = Number(/until (\d+)/.exec(banned.body.msg)![1]);
    expect(until - Date.now()).toBeGreaterThan(110_000);
    // Every request during the ban: 418 with the seconds left, whatever it costs.
    const again = await call('GET', '/api/v3/time');
    expect(again.status).toBe(418);
    expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(120);
    expect(again.headers['retry-after']).toBeDefined();

    const log = (await control('GET', '/_sandbox/requests')).body.requests as BinanceJson[];
    expect(log.filter((r) => r.ip === '127.0.0.1').map((r) => [r.path, r.status, r.weight])).toEqual([
      ['/api/v3/exchangeInfo', 200, 20],
      ['/api/v3/exchangeInfo', 200, 20],
      ['/api/v3/exchangeInfo', 200, 20],
      ['/api/v3/exchangeInfo', 200, 20],
      ['/api/v3/exchangeInfo', 200, 20],
      ['/api/v3/exchangeInfo', 429, 0],
      ['/api/v3/ping', 418, 0],
      ['/api/v3/time', 418, 0],
    ]);
    expect(log[0]).toMatchObject({ method: 'GET', time: expect.any(Number) });
  });

  it('answers -1015 with Retry-After past the account ORDERS pool; other requests go on', async () => {
    // The day's pool: a 10-second window could turn over halfway (rate-limits.test.ts has the 10 s one).
    sandbox.control.setLimits({ ORDERS_1D: 2 });
    const first = await signedCall('POST', '/api/v3/order', creds, order('50000'));
    expect(first.status).toBe(200);
    expect(first.headers['x-mbx-order-count-10s']).toBe('1');
    expect(first.headers['x-mbx-order-count-1d']).toBe('1');
    // A refused order does not count (rest-api.md#unfilled-order-count: every successful order).
    const refused = await signedCall('POST', '/api/v3/order', creds, order('50000.001'));
    expect(refused.status).toBe(400);
    const second = await signedCall('POST', '/api/v3/order', creds, order('50001'));
    expect(second.headers['x-mbx-order-count-10s']).toBe('2');

    const third = await signedCall('POST', '/api/v3/order', creds, order('50002'));
    expect(third.status).toBe(429);
    expect(third.body).toEqual({
      code: -1015,
      msg: 'Too many new orders; current limit is 2 orders per 1 DAY.',
    });
    const secondsToMidnight = Math.ceil((86_400_000 - (Date.now() % 86_400_000)) / 1000);
    expect(Math.abs(Number(third.headers['retry-after']) - secondsToMidnight)).toBeLessThanOrEqual(1);
    expect(sandbox.control.orders(creds.apiKey, 'BTCUSDT').filter((o) => o.status === 'NEW')).toHaveLength(2);
    // The pool is the account's: reading goes on, and another account on this IP may order.
    expect((await signedCall('GET', '/api/v3/openOrders', creds, { symbol: 'BTCUSDT' })).status).toBe(200);
    const other = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    expect((await signedCall('POST', '/api/v3/order', other, order('50000'))).status).toBe(200);
    // The same account ordering again inside Retry-After: the IP is banned.
    expect((await signedCall('POST', '/api/v3/order', creds, order('50003'))).status).toBe(418);
  });
});

describe('control API: limits, forced answers, log, reset', () => {
  it('forces 429 or 418 for one IP with the given Retry-After; the others are not concerned', async () => {
    const ip = '127.0.0.4';
    expect((await control('POST', '/_sandbox/over-limit', { status: 429, retryAfterS: 30, ip })).status).toBe(
      200,
    );
    const throttled = await call('GET', '/api/v3/ping', { from: ip });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeLessThanOrEqual(30);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThanOrEqual(29);
    expect(throttled.body.code).toBe(-1003);
    expect((await call('GET', '/api/v3/ping')).status).toBe(200);
    // It is the real thing: within a second a request may have been in flight (429 again); a later
    // one inside Retry-After earns a ban.
    expect((await call('GET', '/api/v3/ping', { from: ip })).status).toBe(429);
    await sleep(IN_FLIGHT_MS + 100);
    expect((await call('GET', '/api/v3/ping', { from: ip })).status).toBe(418);

    await control('POST', '/_sandbox/over-limit', { status: 418, retryAfterS: 600 });
    const everyone = await call('GET', '/api/v3/time', { from: '127.0.0.5' });
    expect(everyone.status).toBe(418);
    expect(Number(everyone.headers['retry-after'])).toBeGreaterThanOrEqual(599);
    // The control API itself keeps answering.
    expect((await control('GET', '/_sandbox/markets')).status).toBe(200);

    expect((await control('POST', '/_sandbox/limits/reset')).status).toBe(200);
    expect((await call('GET', '/api/v3/time', { from: ip })).status).toBe(200);
    expect((await control('GET', '/_sandbox/requests')).body.requests).toHaveLength(1);
  });

  it('refuses unknown pools and bad forced answers with 400', async () => {
    expect((await control('POST', '/_sandbox/limits', { NOPE: 1 })).status).toBe(400);
    expect((await control('POST', '/_sandbox/limits', { REQUEST_WEIGHT: 0 })).status).toBe(400);
    expect((await control('POST', '/_sandbox/over-limit', { status: 500, retryAfterS: 1 })).status).toBe(400);
  });
});
