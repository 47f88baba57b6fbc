import ccxt from 'ccxt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxExchangeHandle, startSandboxExchange } from '../src/index';
import { ccxtBybit, signedRequest } from './bybit-support';
import { FIXED_BTC_USDT } from './support/markets';

/**
 * Bybit's rate limits in the Bybit dialect (docs/venues/bybit.md#rate-limits, #bans): per-UID
 * per-endpoint budgets with the X-Bapi-Limit headers and 10006, the IP's 600 per 5 s with HTTP 403
 * and a 10-minute ban. Lowered through `handle.bybit.limits` so a test reaches them quickly.
 */
let sandbox: SandboxExchangeHandle;

beforeAll(async () => {
  sandbox = await startSandboxExchange({ port: 0, bybitPort: 0, markets: [FIXED_BTC_USDT] });
});
afterAll(async () => sandbox.close());
afterEach(() => sandbox.bybit.limits.reset());

const wallet = { accountType: 'UNIFIED' };

describe('per UID and endpoint', () => {
  it('reports X-Bapi-Limit, what is left in X-Bapi-Limit-Status and the time in the reset header', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '10' } });
    const before = Date.now();
    const first = await signedRequest(sandbox, 'GET', '/v5/account/wallet-balance', trader, wallet);
    expect(first.body.retCode).toBe(0);
    expect(first.headers.get('x-bapi-limit')).toBe('50');
    expect(first.headers.get('x-bapi-limit-status')).toBe('49');
    const reset = Number(first.headers.get('x-bapi-limit-reset-timestamp'));
    expect(reset).toBeGreaterThanOrEqual(before - 1000);
    expect(reset).toBeLessThanOrEqual(Date.now() + 1000);
    const placed = await signedRequest(sandbox, 'POST', '/v5/order/create', trader, {
      category: 'spot',
      symbol: 'BTCUSDT',
      side: 'Buy',
      orderType: 'Limit',
      qty: '0.0001',
      price: '50000',
    });
    expect(placed.headers.get('x-bapi-limit')).toBe('20');
    // Public market data has no per-UID limit and no such headers.
    const time = await fetch(`${sandbox.bybitUrl}/v5/market/time`);
    expect(time.headers.get('x-bapi-limit')).toBeNull();
  });

  it('answers 10006 past the endpoint budget, HTTP 200, until the rolling second refills; other endpoints go on', async () => {
    sandbox.bybit.limits.setLimits({ ORDER_REALTIME: 3 });
    const trader = sandbox.control.createAccount({ balances: { USDT: '10' } });
    const realtime = () => signedRequest(sandbox, 'GET', '/v5/order/realtime', trader, { category: 'spot' });
    const first = Date.now();
    const left = [];
    for (let i = 0; i < 3; i++) left.push((await realtime()).headers.get('x-bapi-limit-status'));
    expect(left).toEqual(['2', '1', '0']);
    const over = await realtime();
    expect(over.status).toBe(200);
    expect(over.body).toMatchObject({ retCode: 10006, retMsg: 'Too many visits!' });
    expect(over.headers.get('x-bapi-limit-status')).toBe('0');
    // Rolling (rate-limit.mdx "rolling time window per second and UID"): room comes back when the
    // first of the three calls is a second old, not at the clock's next second.
    const resetAt = Number(over.headers.get('x-bapi-limit-reset-timestamp'));
    expect(resetAt).toBeGreaterThanOrEqual(first + 1000);
    expect(resetAt).toBeLessThanOrEqual(Date.now() + 1000);
    const other = await signedRequest(sandbox, 'GET', '/v5/account/wallet-balance', trader, wallet);
    expect(other.body.retCode).toBe(0);
    await new Promise((r) => setTimeout(r, Math.max(0, resetAt - Date.now()) + 20));
    expect((await realtime()).body.retCode).toBe(0);
  });

  it("counts the last second at every moment: calls either side of the clock's second share one budget", async () => {
    sandbox.bybit.limits.setLimits({ ORDER_REALTIME: 3 });
    const trader = sandbox.control.createAccount({ balances: { USDT: '10' } });
    const realtime = () => signedRequest(sandbox, 'GET', '/v5/order/realtime', trader, { category: 'spot' });
    // Late in a second: three calls; then, past the clock's next second, a fourth.
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 700));
    for (let i = 0; i < 3; i++) expect((await realtime()).body.retCode).toBe(0);
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 50));
    expect((await realtime()).body.retCode).toBe(10006);
  });

  it('ccxt reads 10006 as RateLimitExceeded', async () => {
    sandbox.bybit.limits.setLimits({ ORDER_REALTIME: 1 });
    const trader = sandbox.control.createAccount({ balances: { USDT: '10' } });
    const client = ccxtBybit(sandbox, trader);
    await client.loadMarkets();
    await client.isUnifiedEnabled();
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 20));
    await client.fetchOpenOrders('BTC/USDT');
    await expect(client.fetchOpenOrders('BTC/USDT')).rejects.toThrow(ccxt.RateLimitExceeded);
  });

  it('counts each account on its own', async () => {
    sandbox.bybit.limits.setLimits({ WALLET_BALANCE: 1 });
    const a = sandbox.control.createAccount({ balances: { USDT: '10' } });
    const b = sandbox.control.createAccount({ balances: { USDT: '10' } });
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 20));
    expect((await signedRequest(sandbox, 'GET', '/v5/account/wallet-balance', a, wallet)).body.retCode).toBe(
      0,
    );
    expect((await signedRequest(sandbox, 'GET', '/v5/account/wallet-balance', b, wallet)).body.retCode).toBe(
      0,
    );
    expect((await signedRequest(sandbox, 'GET', '/v5/account/wallet-balance', a, wallet)).body.retCode).toBe(
      10006,
    );
  });
});

describe('a refusal forced through the control API, and the request log', () => {
  const force = (body: unknown) =>
    fetch(`${sandbox.bybitUrl}/_sandbox/bybit/limits/force`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it("answers 10006 on one account's endpoint until the reset timestamp it names; other accounts and endpoints go on", async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '10' } });
    const other = sandbox.control.createAccount({ balances: { USDT: '10' } });
    const since = Date.now();
    const forced = await force({ pool: 'ORDER_REALTIME', apiKey: trader.apiKey, forMs: 1500 });
    expect(forced.status).toBe(200);
    const { until } = (await forced.json()) as { until: number };
    const realtime = (who: typeof trader) =>
      signedRequest(sandbox, 'GET', '/v5/order/realtime', who, { category: 'spot' });
    const over = await realtime(trader);
    expect(over.body).toMatchObject({ retCode: 10006 });
    expect(Number(over.headers.get('x-bapi-limit-reset-timestamp'))).toBe(until);
    expect(over.headers.get('x-bapi-limit-status')).toBe('0');
    expect((await realtime(other)).body.retCode).toBe(0);
    expect(
      (await signedRequest(sandbox, 'GET', '/v5/account/wallet-balance', trader, wallet)).body.retCode,
    ).toBe(0);
    const log = sandbox.bybit.limits.log.since(since);
    expect(log.filter((r) => r.refusal !== undefined)).toEqual([
      expect.objectContaining({
        path: '/v5/order/realtime',
        accountId: trader.accountId,
        status: 200,
        refusal: '10006',
        forced: true,
      }),
    ]);
    expect(log).toHaveLength(3);
    await new Promise((r) => setTimeout(r, Math.max(0, until - Date.now()) + 20));
    expect((await realtime(trader)).body.retCode).toBe(0);
  });

  it('refuses an unknown key, an IP pool and a missing length', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '10' } });
    expect((await force({ pool: 'ORDER_REALTIME', apiKey: 'nope', forMs: 10 })).status).toBe(400);
    expect((await force({ pool: 'IP_5S', apiKey: trader.apiKey, forMs: 10 })).status).toBe(400);
    expect((await force({ pool: 'ORDER_REALTIME', apiKey: trader.apiKey })).status).toBe(400);
  });
});

describe('per IP', () => {
  it('answers HTTP 403 "access too frequent" past 600 in 5 s (lowered here), and bans the IP', async () => {
    sandbox.bybit.limits.setLimits({ IP_5S: 5 });
    await new Promise((r) => setTimeout(r, 5000 - (Date.now() % 5000) + 20));
    for (let i = 0; i < 5; i++) expect((await fetch(`${sandbox.bybitUrl}/v5/market/time`)).status).toBe(200);
    const over = await fetch(`${sandbox.bybitUrl}/v5/market/time`);
    expect(over.status).toBe(403);
    expect(await over.text()).toBe('access too frequent');
    // A new window does not lift the ban; ccxt reads the 403 as a rate limit.
    sandbox.bybit.limits.setLimits({ IP_5S: 600 });
    const trader = sandbox.control.createAccount({ balances: { USDT: '10' } });
    const signed = await signedRequest(sandbox, 'GET', '/v5/account/wallet-balance', trader, wallet).catch(
      () => undefined,
    );
    expect(signed).toBeUndefined();
    await expect(ccxtBybit(sandbox).fetchTime()).rejects.toThrow(ccxt.RateLimitExceeded);
    sandbox.bybit.limits.reset();
    expect((await fetch(`${sandbox.bybitUrl}/v5/market/time`)).status).toBe(200);
  });

  it('a ban forced through the control handle, lifted by reset', async () => {
    sandbox.bybit.limits.ban(60_000);
    expect((await fetch(`${sandbox.bybitUrl}/v5/market/time`)).status).toBe(403);
    sandbox.bybit.limits.reset();
    expect((await fetch(`${sandbox.bybitUrl}/v5/market/time`)).status).toBe(200);
  });
});
