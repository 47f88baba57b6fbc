import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type SandboxExchangeHandle, startSandboxExchange } from '../src/index';
import { type Credentials, limitOrder, publicGet, signed } from './support/binance-http';
import { FIXED_BTC_USDT } from './support/markets';

let sandbox: SandboxExchangeHandle | undefined;
let dir: string | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const start = async (stateFile?: string) => {
  sandbox = await startSandboxExchange({ port: 0, markets: [FIXED_BTC_USDT], tickMs: 0, stateFile });
  return sandbox;
};

const control = async (method: 'PUT' | 'DELETE', path: string, body?: unknown) => {
  const response = await fetch(`${sandbox!.url}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

const symbolInfo = async () => {
  const { body } = await publicGet(sandbox!.url, '/api/v3/exchangeInfo');
  return (body.symbols as { symbol: string; status: string; filters: { filterType: string }[] }[]).find(
    (s) => s.symbol === 'BTCUSDT',
  );
};

const buy = (trader: Credentials, price: string, quantity = '0.001') =>
  signed(sandbox!.url, 'POST', '/api/v3/order', trader, limitOrder('BTCUSDT', 'BUY', quantity, price));

describe('symbol status', () => {
  it('BREAK and HALT refuse new orders with "Market is closed." and exchangeInfo says so; TRADING takes them again', async () => {
    const s = await start();
    const trader = s.control.createAccount({ balances: { USDT: '1000' } });
    for (const status of ['BREAK', 'HALT'] as const) {
      expect((await control('PUT', '/_sandbox/markets/BTCUSDT/status', { status })).body.status).toBe(status);
      expect((await symbolInfo())?.status).toBe(status);
      // Binance spot API docs, errors.md#other-errors.
      expect(await buy(trader, '59000')).toEqual({
        status: 400,
        body: { code: -2010, msg: 'Market is closed.' },
      });
    }
    await control('PUT', '/_sandbox/markets/BTCUSDT/status', { status: 'TRADING' });
    expect((await symbolInfo())?.status).toBe('TRADING');
    expect((await buy(trader, '59000')).status).toBe(200);
  });

  it('an unknown status is refused by the control API', async () => {
    await start();
    expect((await control('PUT', '/_sandbox/markets/BTCUSDT/status', { status: 'OPEN' })).status).toBe(400);
  });

  it('a delisted symbol leaves exchangeInfo, its resting orders are cancelled and every request for it answers -1121', async () => {
    const s = await start();
    const trader = s.control.createAccount({ balances: { USDT: '1000' } });
    expect((await buy(trader, '59000')).status).toBe(200);
    expect((await control('DELETE', '/_sandbox/markets/BTCUSDT')).status).toBe(200);
    expect(await symbolInfo()).toBeUndefined();
    const open = await signed(s.url, 'GET', '/api/v3/openOrders', trader, { symbol: 'BTCUSDT' });
    expect(open.body).toEqual({ code: -1121, msg: 'Invalid symbol.' });
    expect((await buy(trader, '59000')).body).toEqual({ code: -1121, msg: 'Invalid symbol.' });
    // The funds the cancelled order held are free again.
    expect(s.control.account(trader.apiKey).balances.find((b) => b.asset === 'USDT')).toMatchObject({
      free: '1000.00000000',
      locked: '0.00000000',
    });
  });
});

describe('filters changed at run time', () => {
  it('a new tick and lot step show in exchangeInfo, and orders off the new grid get -1013', async () => {
    const s = await start();
    const trader = s.control.createAccount({ balances: { USDT: '1000' } });
    const changed = await control('PUT', '/_sandbox/markets/BTCUSDT/filters', {
      tickSize: '0.1',
      stepSize: '0.0001',
      minNotional: '10',
    });
    expect(changed.body).toMatchObject({
      tickSize: '0.10000000',
      stepSize: '0.00010000',
      minNotional: '10.00000000',
    });
    const filters = (await symbolInfo())!.filters;
    expect(filters.find((f) => f.filterType === 'PRICE_FILTER')).toMatchObject({ tickSize: '0.10000000' });
    expect(filters.find((f) => f.filterType === 'LOT_SIZE')).toMatchObject({ stepSize: '0.00010000' });
    expect(filters.find((f) => f.filterType === 'NOTIONAL')).toMatchObject({ minNotional: '10.00000000' });
    // Binance spot API docs, errors.md#filter-failures.
    expect((await buy(trader, '59000.01', '0.001')).body).toEqual({
      code: -1013,
      msg: 'Filter failure: PRICE_FILTER',
    });
    expect((await buy(trader, '59000.1', '0.00015')).body).toEqual({
      code: -1013,
      msg: 'Filter failure: LOT_SIZE',
    });
    expect((await buy(trader, '59000.1', '0.0001')).body).toEqual({
      code: -1013,
      msg: 'Filter failure: NOTIONAL',
    });
    expect((await buy(trader, '59000.1', '0.001')).status).toBe(200);
  });

  it('status, filters and delistings survive a restart through the state file', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-markets-'));
    const file = join(dir, 'state.json');
    const first = await start(file);
    first.control.setMarketStatus('BTCUSDT', 'HALT');
    first.control.setMarketFilters('BTCUSDT', { tickSize: '0.5' });
    await first.close();
    sandbox = undefined;
    const second = await start(file);
    expect(second.control.markets()[0]).toMatchObject({ status: 'HALT', tickSize: '0.50000000' });
    second.control.delistMarket('BTCUSDT');
    await second.close();
    sandbox = undefined;
    const third = await start(file);
    expect(third.control.markets()).toEqual([]);
  });
});

describe('clock skew', () => {
  it('GET /api/v3/time follows the skew, and a client on the host clock gets Binance’s -1021', async () => {
    const s = await start();
    const trader = s.control.createAccount({ balances: { USDT: '1000' } });
    await control('PUT', '/_sandbox/clock', { offsetMs: -10_000 });
    const { body: time } = await publicGet(s.url, '/api/v3/time');
    expect(Math.abs(time.serverTime - (Date.now() - 10_000))).toBeLessThan(2000);
    // Our timestamp is 10 s ahead of the exchange's clock.
    expect((await buy(trader, '59000')).body).toEqual({
      code: -1021,
      msg: "Timestamp for this request was 1000ms ahead of the server's time.",
    });
    s.control.skewClock(10_000);
    // 10 s behind: outside the default recvWindow of 5000 ms.
    expect((await buy(trader, '59000')).body).toEqual({
      code: -1021,
      msg: 'Timestamp for this request is outside of the recvWindow.',
    });
    // A client that measured the offset is inside the window again.
    const synced = await signed(
      s.url,
      'POST',
      '/api/v3/order',
      trader,
      limitOrder('BTCUSDT', 'BUY', '0.001', '59000'),
      {
        timestamp: Date.now() + 10_000,
      },
    );
    expect(synced.status).toBe(200);
  });
});
