import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ccxt from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxExchangeHandle, startSandboxExchange } from '../src/index';
import { FIXED_BTC_USDT, FIXED_XRP_USDT } from './support/markets';
import { ccxtOkx as ccxtOkxAt, type OkxCredentials, okxGet, okxSigned } from './support/okx-clients';

/**
 * The OKX v5 spot dialect, judged by ccxt's `okx` class and checked against the answer shapes ccxt
 * records from OKX (ccxt/ccxt ts/src/test/static/response/okx.json). OKX's own SDK and the private
 * WebSocket: okx-sdk.int.test.ts, okx-stream.int.test.ts.
 */
let sandbox: SandboxExchangeHandle;

const get = (path: string) => okxGet(sandbox.okxUrl, path);
const signed = (
  method: 'GET' | 'POST',
  path: string,
  credentials: OkxCredentials,
  body?: unknown,
  options?: Parameters<typeof okxSigned>[5],
) => okxSigned(sandbox.okxUrl, method, path, credentials, body, options);
const ccxtOkx = (credentials?: OkxCredentials) => ccxtOkxAt(sandbox.okxUrl, credentials);

beforeAll(async () => {
  sandbox = await startSandboxExchange({
    port: 0,
    bybitPort: 0,
    okxPort: 0,
    markets: [FIXED_BTC_USDT, FIXED_XRP_USDT],
  });
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  sandbox.control.setPrice('BTCUSDT', '60000');
  sandbox.control.setPrice('XRPUSDT', '0.5');
});

describe('served beside the Binance and Bybit dialects', () => {
  it('answers on its own port, with a passphrase for every new key', async () => {
    expect(sandbox.okxUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new Set([sandbox.port, sandbox.bybitPort, sandbox.okxPort]).size).toBe(3);
    const { body } = await get('/api/v5/market/ticker?instId=BTC-USDT');
    expect(body).toMatchObject({ code: '0', msg: '' });
    expect(body.data[0]).toMatchObject({ instId: 'BTC-USDT', last: '60000', instType: 'SPOT' });
    const trader = sandbox.control.createAccount({ balances: { USDT: '1' } });
    expect(trader.passphrase).toMatch(/^[\x21-\x7E]{8,32}$/);
    const chosen = sandbox.control.createAccount({ passphrase: 'Grid#Bot2026' });
    expect(chosen.passphrase).toBe('Grid#Bot2026');
  });
});

describe('public market data', () => {
  it('server time as OKX sends it (data[0].ts, ms as a string), read by ccxt', async () => {
    const { status, body } = await get('/api/v5/public/time');
    expect(status).toBe(200);
    expect(body.code).toBe('0');
    expect(body.data[0]?.ts).toMatch(/^\d{13}$/);
    const time = await ccxtOkx().fetchTime();
    expect(Math.abs((time ?? 0) - Date.now())).toBeLessThan(5000);
  });

  it('lists SPOT instruments with tickSz, lotSz, minSz and state; other types are empty', async () => {
    const { body } = await get('/api/v5/public/instruments?instType=SPOT');
    expect(body.data.find((m) => m.instId === 'XRP-USDT')).toMatchObject({
      instId: 'XRP-USDT',
      instType: 'SPOT',
      baseCcy: 'XRP',
      quoteCcy: 'USDT',
      state: 'live',
      tickSz: '0.0001',
      lotSz: '0.1',
      minSz: '1',
    });
    expect((await get('/api/v5/public/instruments?instType=SWAP')).body.data).toEqual([]);
    const missing = await get('/api/v5/public/instruments');
    expect(missing.body).toMatchObject({ code: '50014', msg: 'Parameter instType cannot be empty.' });
    sandbox.exchange.setStatus('XRPUSDT', 'HALT');
    try {
      const { body: halted } = await get('/api/v5/public/instruments?instType=SPOT&instId=XRP-USDT');
      expect(halted.data[0]?.state).toBe('suspend');
    } finally {
      sandbox.exchange.setStatus('XRPUSDT', 'TRADING');
    }
  });

  it('ccxt loads the markets, with its default market types too', async () => {
    const markets = await ccxtOkx().loadMarkets();
    expect(markets['BTC/USDT']).toMatchObject({
      id: 'BTC-USDT',
      spot: true,
      active: true,
      precision: { amount: 0.00001, price: 0.01 },
    });
    const all = new ccxt.okx();
    all.urls.api = { rest: sandbox.okxUrl };
    expect(Object.keys(await all.loadMarkets()).sort()).toEqual(['BTC/USDT', 'XRP/USDT']);
  });

  it('tickers from the core price, fetched by ccxt', async () => {
    sandbox.control.setPrice('BTCUSDT', '61000');
    const ticker = await ccxtOkx().fetchTicker('BTC/USDT');
    expect(ticker).toMatchObject({ symbol: 'BTC/USDT', last: 61000, bid: 61000, ask: 61000 });
    const tickers = await ccxtOkx().fetchTickers();
    expect(tickers['XRP/USDT']?.last).toBe(0.5);
  });

  it('candles newest first with OKX columns, paged by after/before, read by ccxt', async () => {
    sandbox.control.setPrice('BTCUSDT', '60100');
    const { body } = await get('/api/v5/market/candles?instId=BTC-USDT&bar=1m&limit=5');
    const rows = body.data as unknown as string[][];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]).toHaveLength(9);
    expect(rows[0]![4]).toBe('60100');
    expect(rows[0]![8]).toBe('0');
    const starts = rows.map((row) => Number(row[0]));
    expect([...starts].sort((a, b) => b - a)).toEqual(starts);
    const newest = starts[0]!;
    const older = await get(`/api/v5/market/candles?instId=BTC-USDT&bar=1m&after=${newest}`);
    expect((older.body.data as unknown as string[][]).every((row) => Number(row[0]) < newest)).toBe(true);
    const history = await get('/api/v5/market/history-candles?instId=BTC-USDT&bar=1H');
    expect(history.body.code).toBe('0');
    const ohlcv = await ccxtOkx().fetchOHLCV('BTC/USDT', '1m', undefined, 5);
    expect(ohlcv.at(-1)?.[4]).toBe(60100);
    const daily = await ccxtOkx().fetchOHLCV('BTC/USDT', '1d');
    expect(daily.length).toBeGreaterThan(0);
    const bad = await get('/api/v5/market/candles?instId=BTC-USDT&bar=7m');
    expect(bad.body).toMatchObject({ code: '51000', msg: 'Parameter bar error' });
  });

  it('refuses an unknown instrument with 51001, which ccxt reads as BadSymbol', async () => {
    const { body } = await get('/api/v5/market/ticker?instId=DOGE-USDT');
    expect(body).toMatchObject({ code: '51001', data: [] });
    const exchange = ccxtOkx();
    await exchange.loadMarkets();
    await expect(exchange.publicGetMarketTicker({ instId: 'DOGE-USDT' })).rejects.toBeInstanceOf(
      ccxt.BadSymbol,
    );
  });
});

describe('account', () => {
  it('ccxt fetches the trading balance: availBal free, frozenBal used', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000', BTC: '0.5' } });
    const exchange = ccxtOkx(trader);
    await exchange.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 50000);
    const balance = await exchange.fetchBalance();
    expect(balance.USDT).toMatchObject({ free: 950, used: 50, total: 1000 });
    expect(balance.BTC).toMatchObject({ free: 0.5, used: 0, total: 0.5 });
    const { body } = await signed('GET', '/api/v5/account/balance?ccy=USDT', trader);
    const details = (body.data[0]?.details ?? []) as Record<string, string>[];
    expect(details).toHaveLength(1);
    expect(details[0]).toMatchObject({
      ccy: 'USDT',
      availBal: '950',
      frozenBal: '50',
      eq: '1000',
      cashBal: '1000',
    });
  });

  it('the configuration says what the key may do', async () => {
    const trader = sandbox.control.createAccount({});
    const { body } = await signed('GET', '/api/v5/account/config', trader);
    expect(body.data[0]).toMatchObject({ acctLv: '1', perm: 'read_only,trade', ip: '' });
    const reader = sandbox.control.createAccount({ permissions: { spot: false } });
    const config = await signed('GET', '/api/v5/account/config', reader);
    expect(config.body.data[0]?.perm).toBe('read_only');
    const order = await signed('POST', '/api/v5/trade/order', reader, {
      instId: 'BTC-USDT',
      tdMode: 'cash',
      side: 'buy',
      ordType: 'limit',
      sz: '0.001',
      px: '50000',
    });
    expect(order.body).toMatchObject({ code: '50120' });
  });

  it('TRC20 USDT deposit addresses per account: one to the funding account, one to the trading account', async () => {
    const trader = sandbox.control.createAccount({});
    const { body } = await signed('GET', '/api/v5/asset/deposit-address?ccy=USDT', trader);
    const entries = body.data as Array<{ addr: string; to: string }>;
    expect(entries.map((a) => a.to)).toEqual(['6', '18']);
    for (const entry of entries) {
      expect(entry).toMatchObject({ ccy: 'USDT', chain: 'USDT-TRC20' });
      expect(entry.addr).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    }
    expect(new Set(entries.map((a) => a.addr)).size).toBe(2);
    const again = await signed('GET', '/api/v5/asset/deposit-address?ccy=USDT', trader);
    expect(again.body.data).toEqual(body.data);
    // ccxt takes one of them as it is; the engine's adapter takes the trading account's (venue-conformance).
    const address = await ccxtOkx(trader).fetchDepositAddress('USDT', { network: 'TRC20' });
    expect(entries.map((a) => a.addr)).toContain(address.address);
  });
});

describe('the passphrase of a key', () => {
  it('the control API takes one or generates one, and answers it with the key', async () => {
    const post = async (body: unknown) => {
      const response = await fetch(`${sandbox.url}/_sandbox/accounts`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const chosen = await post({ balances: { USDT: '10' }, passphrase: 'My-Pass#1' });
    expect(chosen.body).toMatchObject({ passphrase: 'My-Pass#1' });
    const generated = await post({});
    expect(generated.body.passphrase).toMatch(/^[\x21-\x7E]{8,32}$/);
    expect((await post({ passphrase: 'has space' })).status).toBe(400);
    const { body } = await signed('GET', '/api/v5/account/balance', chosen.body as unknown as OkxCredentials);
    expect(body.code).toBe('0');
  });

  it('is kept in the state file: a restarted sandbox takes the same passphrase', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-okx-'));
    const stateFile = join(dir, 'state.json');
    try {
      const first = await startSandboxExchange({ port: 0, okxPort: 0, markets: [FIXED_BTC_USDT], stateFile });
      const trader = first.control.createAccount({ balances: { USDT: '7' }, passphrase: 'Kept#Pass1' });
      await first.close();
      const second = await startSandboxExchange({
        port: 0,
        okxPort: 0,
        markets: [FIXED_BTC_USDT],
        stateFile,
      });
      try {
        const { body } = await okxSigned(second.okxUrl, 'GET', '/api/v5/account/balance', trader);
        expect(body.code).toBe('0');
        const wrong = await okxSigned(second.okxUrl, 'GET', '/api/v5/account/balance', {
          ...trader,
          passphrase: 'Other#Pass1',
        });
        expect(wrong.body.code).toBe('50105');
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
