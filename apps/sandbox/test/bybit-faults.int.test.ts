import ccxt from 'ccxt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxExchangeHandle, startSandboxExchange } from '../src/index';
import { type Credentials, ccxtBybit, signedRequest } from './bybit-support';
import { FIXED_BTC_USDT } from './support/markets';

/**
 * Faults of the Bybit dialect (bybit-faults.ts): HTTP 5xx, 10016 "Server error.", late answers,
 * and new orders carried out but answered 10000 or never answered, so an engine can be tested
 * against them. Through `handle.bybit.faults`; the Binance dialect is not touched.
 */
let sandbox: SandboxExchangeHandle;

beforeAll(async () => {
  sandbox = await startSandboxExchange({ port: 0, bybitPort: 0, markets: [FIXED_BTC_USDT] });
});
afterAll(async () => sandbox.close());
afterEach(() => sandbox.bybit.faults.reset());

const order = (linkId: string) => ({
  category: 'spot',
  symbol: 'BTCUSDT',
  side: 'Buy',
  orderType: 'Limit',
  qty: '0.001',
  price: '50000',
  orderLinkId: linkId,
});

const linkIds = (trader: Credentials) => sandbox.control.orders(trader.apiKey).map((o) => o.clientOrderId);

describe('outages', () => {
  it('answers HTTP 503 on every /v5/ call, doing nothing; ccxt sees the exchange unavailable; Binance goes on', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    sandbox.bybit.faults.startOutage({ kind: 'status', status: 503, forMs: 60_000 });
    const time = await fetch(`${sandbox.bybitUrl}/v5/market/time`);
    expect(time.status).toBe(503);
    await expect(ccxtBybit(sandbox).fetchTime()).rejects.toThrow(ccxt.ExchangeNotAvailable);
    const placed = await signedRequest(sandbox, 'POST', '/v5/order/create', trader, order('o-503')).catch(
      () => undefined,
    );
    expect(placed).toBeUndefined();
    expect(linkIds(trader)).toEqual([]);
    expect((await fetch(`${sandbox.url}/api/v3/time`)).status).toBe(200);
  });

  it('answers 10016 "Server error." in HTTP 200, doing nothing', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    sandbox.bybit.faults.startOutage({ kind: 'error', forMs: 60_000 });
    const placed = await signedRequest(sandbox, 'POST', '/v5/order/create', trader, order('o-10016'));
    expect(placed.status).toBe(200);
    expect(placed.body).toMatchObject({ retCode: 10016, retMsg: 'Server error.' });
    expect(linkIds(trader)).toEqual([]);
  });

  it('answers late; a new order is carried out before its late answer', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    sandbox.bybit.faults.startOutage({ kind: 'timeout', forMs: 60_000, delayMs: 400 });
    const started = Date.now();
    const pending = signedRequest(sandbox, 'POST', '/v5/order/create', trader, order('o-late'));
    await new Promise((r) => setTimeout(r, 150));
    expect(linkIds(trader)).toEqual(['o-late']);
    const placed = await pending;
    expect(placed.body.retCode).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(380);
    const time = Date.now();
    await fetch(`${sandbox.bybitUrl}/v5/market/time`);
    expect(Date.now() - time).toBeGreaterThanOrEqual(380);
  });

  it('carries out a new order and answers 10000 "Server Timeout" (the outcome is unknown)', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    sandbox.bybit.faults.startOutage({ kind: 'unknown', forMs: 60_000 });
    const placed = await signedRequest(sandbox, 'POST', '/v5/order/create', trader, order('o-unknown'));
    expect(placed.body).toMatchObject({ retCode: 10000, retMsg: 'Server Timeout' });
    expect(linkIds(trader)).toEqual(['o-unknown']);
    // Reads go on: the order can be looked up.
    const found = await signedRequest(sandbox, 'GET', '/v5/order/realtime', trader, {
      category: 'spot',
      orderLinkId: 'o-unknown',
    });
    expect(found.body.result.list[0]).toMatchObject({ orderLinkId: 'o-unknown', orderStatus: 'New' });
  });

  it('ends by itself after forMs', async () => {
    sandbox.bybit.faults.startOutage({ kind: 'status', status: 502, forMs: 100 });
    expect((await fetch(`${sandbox.bybitUrl}/v5/market/time`)).status).toBe(502);
    await new Promise((r) => setTimeout(r, 150));
    expect((await fetch(`${sandbox.bybitUrl}/v5/market/time`)).status).toBe(200);
  });
});

describe('one spoiled order answer', () => {
  it('drops the connection of the next placement after carrying it out', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    sandbox.bybit.faults.failNextOrderResponse({ kind: 'drop' });
    await expect(
      signedRequest(sandbox, 'POST', '/v5/order/create', trader, order('o-drop')),
    ).rejects.toThrow();
    expect(linkIds(trader)).toEqual(['o-drop']);
    const next = await signedRequest(sandbox, 'POST', '/v5/order/create', trader, order('o-next'));
    expect(next.body.retCode).toBe(0);
  });
});

describe('the control API on the Bybit port', () => {
  const control = (path: string, body: object) =>
    fetch(`${sandbox.bybitUrl}/_sandbox/bybit/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('starts and ends an outage, queues a spoiled answer, and refuses a bad request with 400', async () => {
    expect((await control('faults/outage', { kind: 'status', status: 504, forMs: 60_000 })).status).toBe(200);
    expect((await fetch(`${sandbox.bybitUrl}/v5/market/time`)).status).toBe(504);
    expect((await control('faults/reset', {})).status).toBe(200);
    expect((await fetch(`${sandbox.bybitUrl}/v5/market/time`)).status).toBe(200);
    expect((await control('faults/outage', { kind: 'status', status: 404, forMs: 1 })).status).toBe(400);
    expect((await control('faults/next-order', { kind: 'unknown' })).status).toBe(200);
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    const placed = await signedRequest(sandbox, 'POST', '/v5/order/create', trader, order('o-ctl'));
    expect(placed.body.retCode).toBe(10000);
  });

  it('lowers a per-UID limit and bans the IP, then resets', async () => {
    const limits = await control('limits', { WALLET_BALANCE: 7 });
    expect(((await limits.json()) as { limits: Record<string, number> }).limits.WALLET_BALANCE).toBe(7);
    expect((await control('limits', { NO_SUCH_POOL: 1 })).status).toBe(400);
    expect((await control('limits/ban', { ms: 60_000 })).status).toBe(200);
    expect((await fetch(`${sandbox.bybitUrl}/v5/market/time`)).status).toBe(403);
    // The control API itself is not under the IP limit.
    expect((await control('limits/reset', {})).status).toBe(200);
    expect((await fetch(`${sandbox.bybitUrl}/v5/market/time`)).status).toBe(200);
  });
});
