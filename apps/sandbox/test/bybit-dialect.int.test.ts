import { createHmac } from 'node:crypto';
import { RestClientV5 } from 'bybit-api';
import ccxt from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxExchangeHandle, startSandboxExchange } from '../src/index';
import { FIXED_BTC_USDT } from './support/markets';

/**
 * The Bybit v5 spot dialect, judged by real clients: ccxt's `bybit` class and Bybit's own Node SDK
 * (bybit-api), checked against the answer shapes ccxt records from Bybit
 * (ccxt/ccxt ts/src/test/static/response/bybit.json).
 */
let sandbox: SandboxExchangeHandle;

const XRP_USDT = {
  base: 'XRP',
  quote: 'USDT',
  tickSize: '0.0001',
  stepSize: '0.1',
  minQty: '1',
  minNotional: '5',
  feed: { kind: 'fixed', price: '0.5' },
  liquidity: 'infinite',
} as const;

/** ccxt's bybit with every API base pointed at the sandbox's Bybit dialect (bybit.ts `urls.api`). */
const ccxtBybit = (credentials?: { apiKey: string; secret: string }) => {
  const exchange = new ccxt.bybit({
    ...credentials,
    options: { defaultType: 'spot', fetchMarkets: { types: ['spot'] } },
  });
  const url = sandbox.bybitUrl;
  exchange.urls.api = { spot: url, futures: url, v2: url, public: url, private: url };
  return exchange;
};

/** Bybit's envelope, loosely: the fields these tests read. */
type Envelope = {
  retCode: number;
  retMsg: string;
  retExtInfo: object;
  time: number;
  result: { list: Record<string, unknown>[]; category?: string; timeSecond?: string; timeNano?: string };
};

const get = async (path: string) => {
  const response = await fetch(`${sandbox.bybitUrl}${path}`);
  return { status: response.status, body: (await response.json()) as Envelope };
};

type Credentials = { apiKey: string; secret: string };

/** A signed v5 request made by hand (guide.mdx "Authentication"), for what the clients cannot send. */
const signed = async (
  method: 'GET' | 'POST',
  path: string,
  credentials: Credentials,
  params: Record<string, string>,
  options: { timestamp?: number; recvWindow?: string; sign?: string } = {},
) => {
  const timestamp = String(options.timestamp ?? Date.now());
  const recvWindow = options.recvWindow ?? '5000';
  const payload = method === 'GET' ? new URLSearchParams(params).toString() : JSON.stringify(params);
  const sign =
    options.sign ??
    createHmac('sha256', credentials.secret)
      .update(`${timestamp}${credentials.apiKey}${recvWindow}${payload}`)
      .digest('hex');
  const response = await fetch(`${sandbox.bybitUrl}${path}${method === 'GET' ? `?${payload}` : ''}`, {
    method,
    headers: {
      'X-BAPI-API-KEY': credentials.apiKey,
      'X-BAPI-TIMESTAMP': timestamp,
      'X-BAPI-RECV-WINDOW': recvWindow,
      'X-BAPI-SIGN': sign,
      ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(method === 'POST' ? { body: payload } : {}),
  });
  return { status: response.status, body: (await response.json()) as Envelope };
};

const sdk = (credentials: Credentials) =>
  new RestClientV5({ key: credentials.apiKey, secret: credentials.secret, baseUrl: sandbox.bybitUrl });

beforeAll(async () => {
  sandbox = await startSandboxExchange({ port: 0, bybitPort: 0, markets: [FIXED_BTC_USDT, XRP_USDT] });
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  sandbox.control.setPrice('BTCUSDT', '60000');
  sandbox.control.setPrice('XRPUSDT', '0.5');
});

describe('served beside the Binance dialect', () => {
  it('answers on its own port, the Binance dialect still on its own', async () => {
    expect(sandbox.bybitUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.bybitPort).not.toBe(sandbox.port);
    const binance = await fetch(`${sandbox.url}/api/v3/ticker/price?symbol=BTCUSDT`);
    expect(await binance.json()).toEqual({ symbol: 'BTCUSDT', price: '60000.00000000' });
    const { body } = await get('/v5/market/tickers?category=spot&symbol=BTCUSDT');
    expect(body.result.list[0]?.lastPrice).toBe('60000');
  });
});

describe('public market data', () => {
  it('server time in the envelope ccxt records (retCode, retMsg, result, retExtInfo, time)', async () => {
    const { status, body } = await get('/v5/market/time');
    expect(status).toBe(200);
    expect(body).toMatchObject({ retCode: 0, retMsg: 'OK', retExtInfo: {}, time: expect.any(Number) });
    expect(body.result.timeSecond).toBe(String(Math.floor(body.time / 1000)));
    expect(body.result.timeNano).toMatch(/^\d{19}$/);
    const time = await ccxtBybit().fetchTime();
    expect(Math.abs((time ?? 0) - Date.now())).toBeLessThan(5000);
  });

  it('lists spot instruments with their filters and status, as ccxt loads them', async () => {
    const { body } = await get('/v5/market/instruments-info?category=spot');
    expect(body.result.category).toBe('spot');
    expect(body.result.list.find((m) => m.symbol === 'XRPUSDT')).toMatchObject({
      symbol: 'XRPUSDT',
      baseCoin: 'XRP',
      quoteCoin: 'USDT',
      status: 'Trading',
      lotSizeFilter: { basePrecision: '0.1', minOrderQty: '1', minOrderAmt: '5' },
      priceFilter: { tickSize: '0.0001' },
    });
    const markets = await ccxtBybit().loadMarkets();
    expect(markets['BTC/USDT']).toMatchObject({
      id: 'BTCUSDT',
      spot: true,
      active: true,
      precision: { amount: 0.00001, price: 0.01 },
      limits: { cost: { min: 5 } },
    });
  });

  it('shows a market that stops trading as not Trading', async () => {
    sandbox.exchange.setStatus('XRPUSDT', 'HALT');
    try {
      const { body } = await get('/v5/market/instruments-info?category=spot&symbol=XRPUSDT');
      expect(body.result.list[0]?.status).toBe('Closed');
    } finally {
      sandbox.exchange.setStatus('XRPUSDT', 'TRADING');
    }
  });

  it('tickers from the core price, fetched by ccxt', async () => {
    sandbox.control.setPrice('BTCUSDT', '61000');
    const ticker = await ccxtBybit().fetchTicker('BTC/USDT');
    expect(ticker).toMatchObject({ symbol: 'BTC/USDT', last: 61000, bid: 61000, ask: 61000 });
  });

  it('klines newest first, as Bybit sends them', async () => {
    sandbox.control.setPrice('BTCUSDT', '60100');
    const { body } = await get('/v5/market/kline?category=spot&symbol=BTCUSDT&interval=1&limit=5');
    expect(body.retCode).toBe(0);
    const list = body.result.list as unknown as string[][];
    expect(list.length).toBeGreaterThan(0);
    expect(list[0]).toHaveLength(7);
    const starts = list.map((row) => Number(row[0]));
    expect([...starts].sort((a, b) => b - a)).toEqual(starts);
    expect(list[0]![4]).toBe('60100');
  });

  it('refuses an unknown symbol and a bad category with the table codes, HTTP 200', async () => {
    const unknown = await get('/v5/market/tickers?category=spot&symbol=DOGEUSDT');
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ retCode: 170121, retMsg: 'Invalid symbol.', result: {} });
    const category = await get('/v5/market/instruments-info?category=margin');
    expect(category.status).toBe(200);
    expect(category.body).toMatchObject({ retCode: 10001, retMsg: 'Request parameter error' });
  });

  it('bybit-api reads the time and the instruments', async () => {
    const client = new RestClientV5({ baseUrl: sandbox.bybitUrl });
    const time = await client.getServerTime();
    expect(time.retCode).toBe(0);
    expect(Number(time.result.timeSecond)).toBeGreaterThan(0);
    const info = await client.getInstrumentsInfo({ category: 'spot', symbol: 'BTCUSDT' });
    expect(info.result.list[0]).toMatchObject({ symbol: 'BTCUSDT', status: 'Trading' });
  });
});

describe('signed requests', () => {
  let trader: Credentials;
  beforeEach(() => {
    trader = sandbox.control.createAccount({ balances: { USDT: '1000', BTC: '0.5' } });
  });
  const wallet = { accountType: 'UNIFIED' };

  it('answers the wallet balance of a UNIFIED account, coins as Bybit names them', async () => {
    const { status, body } = await signed('GET', '/v5/account/wallet-balance', trader, wallet);
    expect(status).toBe(200);
    expect(body.retCode).toBe(0);
    const account = body.result.list[0] as { accountType: string; coin: Record<string, string>[] };
    expect(account.accountType).toBe('UNIFIED');
    expect(account.coin.map((c) => c.coin).sort()).toEqual(['BTC', 'USDT']);
    expect(account.coin.find((c) => c.coin === 'USDT')).toMatchObject({
      walletBalance: '1000',
      locked: '0',
      equity: '1000',
    });
  });

  it('refuses a timestamp outside the window with 10002 (docs/venues/bybit.md#clock)', async () => {
    const late = await signed('GET', '/v5/account/wallet-balance', trader, wallet, {
      timestamp: Date.now() - 6000,
    });
    expect(late.body).toMatchObject({
      retCode: 10002,
      retMsg: 'The request time exceeds the time window range.',
    });
    const ahead = await signed('GET', '/v5/account/wallet-balance', trader, wallet, {
      timestamp: Date.now() + 2000,
    });
    expect(ahead.status).toBe(200);
    expect(ahead.body.retCode).toBe(10002);
    // A wider recv window lets the older timestamp in.
    const wide = await signed('GET', '/v5/account/wallet-balance', trader, wallet, {
      timestamp: Date.now() - 6000,
      recvWindow: '10000',
    });
    expect(wide.body.retCode).toBe(0);
  });

  it('refuses an unknown key with 10003 and a bad signature with 10004', async () => {
    const unknown = await signed(
      'GET',
      '/v5/account/wallet-balance',
      { ...trader, apiKey: 'NoSuchKey123' },
      wallet,
    );
    expect(unknown.status).toBe(200);
    expect(unknown.body.retCode).toBe(10003);
    expect(unknown.body.retMsg).toMatch(/^API key is invalid/);
    const forged = await signed('GET', '/v5/account/wallet-balance', { ...trader, secret: 'wrong' }, wallet);
    expect(forged.body).toMatchObject({
      retCode: 10004,
      retMsg: 'Error sign, please check your signature generation algorithm.',
    });
  });

  it('ccxt fetches the balance (free = wallet − locked)', async () => {
    const balance = await ccxtBybit(trader).fetchBalance();
    expect(balance.USDT).toMatchObject({ free: 1000, used: 0, total: 1000 });
    expect(balance.BTC).toMatchObject({ total: 0.5 });
  });

  it('bybit-api reads the wallet balance', async () => {
    const answer = await sdk(trader).getWalletBalance({ accountType: 'UNIFIED', coin: 'BTC' });
    expect(answer.retCode).toBe(0);
    expect(answer.result.list[0]?.coin).toEqual([
      expect.objectContaining({ coin: 'BTC', walletBalance: '0.5' }),
    ]);
  });
});
