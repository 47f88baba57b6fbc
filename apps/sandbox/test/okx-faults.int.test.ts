import ccxt from 'ccxt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildOkxApp, type SandboxExchangeHandle, startSandboxExchange } from '../src/index';
import { FIXED_BTC_USDT } from './support/markets';
import { ccxtOkx, type OkxCredentials, okxGet, okxSigned } from './support/okx-clients';

/**
 * Faults of the OKX dialect (okx-faults.ts) and its control API (okx-control-routes.ts): HTTP 5xx,
 * 50026, a burst of 50011, late answers, and new orders placed but answered 50004 or never
 * answered, so an engine can be tested against them; the Binance dialect is not touched.
 */
let sandbox: SandboxExchangeHandle;

beforeAll(async () => {
  sandbox = await startSandboxExchange({ port: 0, okxPort: 0, markets: [FIXED_BTC_USDT] });
  sandbox.control.setPrice('BTCUSDT', '60000');
});
afterAll(async () => sandbox.close());
afterEach(() => {
  sandbox.okx.faults.reset();
  sandbox.okx.limits.reset();
});

const order = (clOrdId: string) => [
  { instId: 'BTC-USDT', tdMode: 'cash', side: 'buy', ordType: 'limit', sz: '0.001', px: '50000', clOrdId },
];

const place = (trader: OkxCredentials, clOrdId: string) =>
  okxSigned(sandbox.okxUrl, 'POST', '/api/v5/trade/batch-orders', trader, order(clOrdId));

const clOrdIds = (trader: OkxCredentials) =>
  sandbox.control.orders(trader.apiKey).map((o) => o.clientOrderId);

const control = async (method: 'POST' | 'PUT', path: string, body: unknown = {}) => {
  const response = await fetch(`${sandbox.okxUrl}/_sandbox/okx${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('outages', () => {
  it('answers HTTP 503 on every /api/v5/ call, doing nothing; Binance goes on', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    sandbox.okx.faults.startOutage({ kind: 'status', status: 503, forMs: 60_000 });
    expect((await fetch(`${sandbox.okxUrl}/api/v5/public/time`)).status).toBe(503);
    await expect(ccxtOkx(sandbox.okxUrl, trader).fetchTime()).rejects.toThrow(ccxt.ExchangeNotAvailable);
    await place(trader, 'o503').catch(() => undefined);
    expect(clOrdIds(trader)).toEqual([]);
    expect((await fetch(`${sandbox.url}/api/v3/time`)).status).toBe(200);
  });

  it('a burst of 50011 (HTTP 429) on every call, whatever the counts, doing nothing', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    expect((await control('POST', '/faults/outage', { kind: 'throttled', forMs: 60_000 })).status).toBe(200);
    const placed = await place(trader, 'o50011');
    expect(placed.status).toBe(429);
    expect(placed.body).toMatchObject({ code: '50011', data: [] });
    expect((await okxGet(sandbox.okxUrl, '/api/v5/public/time')).body.code).toBe('50011');
    expect(clOrdIds(trader)).toEqual([]);
    await control('POST', '/faults/reset');
    expect((await okxGet(sandbox.okxUrl, '/api/v5/public/time')).body.code).toBe('0');
  });

  it('50026 "System error" (HTTP 500), doing nothing', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    sandbox.okx.faults.startOutage({ kind: 'error', forMs: 60_000 });
    const placed = await place(trader, 'o50026');
    expect(placed.status).toBe(500);
    expect(placed.body.code).toBe('50026');
    expect(clOrdIds(trader)).toEqual([]);
  });

  it('unknown: every new order is placed and answered 50004 (HTTP 400)', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    sandbox.okx.faults.startOutage({ kind: 'unknown', forMs: 60_000 });
    const placed = await place(trader, 'o50004');
    expect(placed.status).toBe(400);
    expect(placed.body.code).toBe('50004');
    expect(clOrdIds(trader)).toEqual(['o50004']);
  });
});

describe('the next placement', () => {
  it('dropped: the order is placed, the connection closes unanswered', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    expect((await control('POST', '/faults/next-order', { kind: 'drop' })).status).toBe(200);
    await expect(place(trader, 'odrop')).rejects.toThrow();
    expect(clOrdIds(trader)).toEqual(['odrop']);
    // Only the next one: the one after is answered.
    expect((await place(trader, 'oafter')).body.code).toBe('0');
  });

  it('a refused placement is answered as it is, the fault kept for the next order placed', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1' } });
    await control('POST', '/faults/next-order', { kind: 'unknown' });
    expect((await place(trader, 'opoor')).body.data).toMatchObject([{ sCode: '51008' }]);
    sandbox.control.setBalances(trader.apiKey, { USDT: '1000' });
    expect((await place(trader, 'orich')).body.code).toBe('50004');
  });
});

describe('the control API', () => {
  it('lowers a pool at run time (50011 past it), and resets it', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    const set = await control('POST', '/limits', { BALANCE: 1 });
    expect(set.body.limits).toMatchObject({ BALANCE: 1, PLACE_ORDER: 60 });
    const balance = () => okxSigned(sandbox.okxUrl, 'GET', '/api/v5/account/balance', trader);
    const answers = [await balance(), await balance(), await balance()].map((a) => a.body.code);
    expect(answers).toContain('50011');
    await control('POST', '/limits/reset');
    expect((await balance()).body.code).toBe('0');
    expect((await control('POST', '/limits', { NOPE: 1 })).status).toBe(400);
  });

  it("suspends an instrument and changes its tick in OKX's words, seen by every dialect", async () => {
    expect((await control('PUT', '/instruments/BTC-USDT/state', { state: 'suspend' })).status).toBe(200);
    const listed = await okxGet(sandbox.okxUrl, '/api/v5/public/instruments?instType=SPOT&instId=BTC-USDT');
    expect(listed.body.data).toMatchObject([{ state: 'suspend' }]);
    expect(sandbox.control.markets().find((m) => m.symbol === 'BTCUSDT')?.status).toBe('HALT');
    await control('PUT', '/instruments/BTC-USDT/state', { state: 'live' });
    const changed = await control('PUT', '/instruments/BTC-USDT/filters', { tickSz: '0.1' });
    expect(changed.body).toMatchObject({ instId: 'BTC-USDT', tickSz: '0.1' });
    expect(sandbox.control.markets().find((m) => m.symbol === 'BTCUSDT')?.tickSize).toBe('0.10000000');
    await control('PUT', '/instruments/BTC-USDT/filters', { tickSz: '0.01' });
    expect((await control('PUT', '/instruments/BTC-USDT/state', { state: 'halted' })).status).toBe(400);
  });

  it("skews the exchange's clock: a signed call 40 s off is 50102", async () => {
    const trader = sandbox.control.createAccount();
    await control('PUT', '/clock', { offsetMs: 40_000 });
    try {
      const answer = await okxSigned(sandbox.okxUrl, 'GET', '/api/v5/account/balance', trader);
      expect(answer.body.code).toBe('50102');
    } finally {
      await control('PUT', '/clock', { offsetMs: 0 });
    }
  });
});

describe('the control API off the loopback interface', () => {
  it('answers 403 and changes nothing', async () => {
    const app = buildOkxApp(sandbox.exchange);
    try {
      const calls = [
        { method: 'POST', url: '/_sandbox/okx/faults/next-order', payload: { kind: 'drop' } },
        { method: 'POST', url: '/_sandbox/okx/faults/outage', payload: { kind: 'throttled', forMs: 60_000 } },
        { method: 'POST', url: '/_sandbox/okx/limits', payload: { BALANCE: 1 } },
        { method: 'PUT', url: '/_sandbox/okx/clock', payload: { offsetMs: 60_000 } },
        { method: 'PUT', url: '/_sandbox/okx/instruments/BTC-USDT/state', payload: { state: 'suspend' } },
        { method: 'PUT', url: '/%5Fsandbox/okx/instruments/BTC-USDT/filters', payload: { tickSz: '1' } },
      ] as const;
      for (const call of calls) {
        const response = await app.inject({ ...call, remoteAddress: '10.1.2.3' });
        expect([403, 404], `${call.method} ${call.url}`).toContain(response.statusCode);
      }
      expect(app.okx.faults.current()).toBeUndefined();
      expect(app.okx.faults.takeOrderFault()).toBeUndefined();
      expect(sandbox.control.markets().find((m) => m.symbol === 'BTCUSDT')).toMatchObject({
        status: 'TRADING',
        tickSize: '0.01000000',
      });
      expect(Math.abs(sandbox.exchange.now() - Date.now())).toBeLessThan(5_000);
    } finally {
      await app.close();
    }
  });
});

describe('a refusal forced on one pool through the control API, and the request log', () => {
  const pending = (trader: OkxCredentials) =>
    okxSigned(sandbox.okxUrl, 'GET', '/api/v5/trade/orders-pending?instType=SPOT', trader);

  it("answers 50011 (HTTP 429) on one account's endpoint until it ends; other accounts and endpoints go on", async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    const other = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    const since = Date.now();
    const forced = await control('POST', '/limits/force', {
      pool: 'ORDERS_PENDING',
      apiKey: trader.apiKey,
      forMs: 1500,
    });
    expect(forced.status).toBe(200);
    const until = Number(forced.body.until);
    const over = await pending(trader);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: '50011', data: [] });
    expect((await pending(other)).body.code).toBe('0');
    expect((await okxSigned(sandbox.okxUrl, 'GET', '/api/v5/account/balance', trader)).body.code).toBe('0');
    const log = sandbox.okx.limits.log.since(since);
    expect(log.filter((r) => r.refusal !== undefined)).toEqual([
      expect.objectContaining({
        path: '/api/v5/trade/orders-pending',
        accountId: trader.accountId,
        status: 429,
        refusal: '50011',
        forced: true,
      }),
    ]);
    expect(log).toHaveLength(3);
    await new Promise((r) => setTimeout(r, Math.max(0, until - Date.now()) + 20));
    expect((await pending(trader)).body.code).toBe('0');
  });

  it('a public pool is forced per IP; a private one needs a known key', async () => {
    expect(
      (await control('POST', '/limits/force', { pool: 'TICKERS', ip: '127.0.0.1', forMs: 1000 })).status,
    ).toBe(200);
    expect((await okxGet(sandbox.okxUrl, '/api/v5/market/tickers?instType=SPOT')).body.code).toBe('50011');
    expect((await okxGet(sandbox.okxUrl, '/api/v5/public/time')).body.code).toBe('0');
    expect((await control('POST', '/limits/force', { pool: 'ORDERS_PENDING' })).status).toBe(400);
    expect((await control('POST', '/limits/force', { pool: 'NOPE', ip: '127.0.0.1' })).status).toBe(400);
  });
});
