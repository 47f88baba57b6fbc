import { createHmac } from 'node:crypto';
import { RestClientV5 } from 'bybit-api';
import ccxt from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxExchangeHandle, startSandboxExchange } from '../src/index';
import { FIXED_BTC_USDT, FIXED_XRP_USDT } from './support/markets';

/**
 * The Bybit v5 spot dialect, judged by real clients: ccxt's `bybit` class and Bybit's own Node SDK
 * (bybit-api), checked against the answer shapes ccxt records from Bybit
 * (ccxt/ccxt ts/src/test/static/response/bybit.json).
 */
let sandbox: SandboxExchangeHandle;

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
  result: {
    list: Record<string, unknown>[];
    category?: string;
    timeSecond?: string;
    timeNano?: string;
    orderId?: string;
    orderLinkId?: string;
  };
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
  sandbox = await startSandboxExchange({ port: 0, bybitPort: 0, markets: [FIXED_BTC_USDT, FIXED_XRP_USDT] });
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

  it('ccxt loads its markets with its default options too (other categories are empty)', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '10' } });
    const exchange = new ccxt.bybit({ apiKey: trader.apiKey, secret: trader.secret });
    const url = sandbox.bybitUrl;
    exchange.urls.api = { spot: url, futures: url, v2: url, public: url, private: url };
    const markets = await exchange.loadMarkets();
    expect(Object.keys(markets).sort()).toEqual(['BTC/USDT', 'XRP/USDT']);
    expect(exchange.currencies.USDT).toBeDefined();
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

  it('refuses an unknown key with 10003 (HTTP 401) and a bad signature with 10004 (HTTP 200)', async () => {
    const unknown = await signed(
      'GET',
      '/v5/account/wallet-balance',
      { ...trader, apiKey: 'NoSuchKey123' },
      wallet,
    );
    expect(unknown.status).toBe(401);
    expect(unknown.body.retCode).toBe(10003);
    expect(unknown.body.retMsg).toMatch(/^API key is invalid/);
    const forged = await signed('GET', '/v5/account/wallet-balance', { ...trader, secret: 'wrong' }, wallet);
    expect(forged.status).toBe(200);
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

describe('order lifecycle', () => {
  let trader: Credentials;
  beforeEach(() => {
    trader = sandbox.control.createAccount({ balances: { USDT: '1000', BTC: '0.01' } });
  });
  const create = (params: Record<string, string>) =>
    signed('POST', '/v5/order/create', trader, { category: 'spot', symbol: 'BTCUSDT', ...params });

  it('ccxt places a limit order, lists it open, cancels it; the lock comes and goes', async () => {
    const client = ccxtBybit(trader);
    const placed = await client.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 59000, {
      clientOrderId: 'grid-1',
    });
    expect(placed.id).toMatch(/^\d+$/);
    expect(placed.clientOrderId).toBe('grid-1');
    const open = await client.fetchOpenOrders('BTC/USDT');
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      id: placed.id,
      clientOrderId: 'grid-1',
      status: 'open',
      side: 'buy',
      type: 'limit',
      price: 59000,
      amount: 0.001,
      filled: 0,
      remaining: 0.001,
    });
    const balance = await client.fetchBalance();
    expect(balance.USDT).toMatchObject({ used: 59, total: 1000 });
    await client.cancelOrder(String(placed.id), 'BTC/USDT');
    expect(await client.fetchOpenOrders('BTC/USDT')).toHaveLength(0);
    const { body } = await signed('GET', '/v5/order/realtime', trader, {
      category: 'spot',
      orderLinkId: 'grid-1',
    });
    expect(body.result.list[0]).toMatchObject({
      orderStatus: 'Cancelled',
      cancelType: 'CancelByUser',
      rejectReason: 'EC_PerCancelRequest',
      cumExecQty: '0',
      leavesQty: '0',
      avgPrice: '',
      positionIdx: '0',
    });
  });

  it('ccxt buys at market for a quote amount and sells a base quantity; fills in fetchMyTrades', async () => {
    const client = ccxtBybit(trader);
    const buy = await client.createMarketBuyOrderWithCost('BTC/USDT', 120);
    const sell = await client.createOrder('BTC/USDT', 'market', 'sell', 0.005);
    const trades = await client.fetchMyTrades('BTC/USDT');
    expect(trades).toHaveLength(2);
    const bought = trades.find((t) => t.order === buy.id);
    expect(bought).toMatchObject({ side: 'buy', price: 60000, amount: 0.002, cost: 120 });
    expect(bought?.fee).toMatchObject({ currency: 'BTC', cost: 0.000002 });
    expect(bought?.takerOrMaker).toBe('taker');
    expect(trades.find((t) => t.order === sell.id)).toMatchObject({ side: 'sell', amount: 0.005, cost: 300 });
    const { body } = await signed('GET', '/v5/execution/list', trader, {
      category: 'spot',
      symbol: 'BTCUSDT',
    });
    expect(body.result.list[0]).toMatchObject({
      execId: expect.stringMatching(/^\d+$/),
      execPrice: '60000',
      execQty: '0.005',
      execFee: '0.3',
      feeCurrency: 'USDT',
      isMaker: false,
    });
    const order = await signed('GET', '/v5/order/realtime', trader, {
      category: 'spot',
      orderId: String(buy.id),
    });
    expect(order.body.result.list[0]).toMatchObject({
      orderStatus: 'Filled',
      orderType: 'Market',
      qty: '120',
      cumExecQty: '0.002',
      cumExecValue: '120',
      avgPrice: '60000',
    });
  });

  it('gives an order sent without orderLinkId a numeric one, as Bybit does for spot', async () => {
    const { body } = await create({ side: 'Buy', orderType: 'Limit', qty: '0.001', price: '50000' });
    expect(body.result).toEqual({
      orderId: expect.stringMatching(/^\d+$/),
      orderLinkId: expect.stringMatching(/^\d{19}$/),
    });
  });

  it('a resting order fills when the price crosses it, as a maker', async () => {
    const { body } = await create({ side: 'Sell', orderType: 'Limit', qty: '0.001', price: '61000' });
    expect(body.retCode).toBe(0);
    sandbox.control.setPrice('BTCUSDT', '61000');
    const order = await signed('GET', '/v5/order/realtime', trader, {
      category: 'spot',
      orderId: String(body.result.orderId),
    });
    expect(order.body.result.list[0]).toMatchObject({ orderStatus: 'Filled', cumExecQty: '0.001' });
    const fills = await signed('GET', '/v5/execution/list', trader, {
      category: 'spot',
      orderId: String(body.result.orderId),
    });
    expect(fills.body.result.list).toEqual([expect.objectContaining({ isMaker: true, execPrice: '61000' })]);
  });

  it('refuses with the table codes: duplicate orderLinkId (open or ended), balance, minimum, market closed, unknown cancel', async () => {
    const first = await create({
      side: 'Buy',
      orderType: 'Limit',
      qty: '0.001',
      price: '50000',
      orderLinkId: 'dup',
    });
    expect(first.body).toMatchObject({ retCode: 0, result: { orderLinkId: 'dup' } });
    const again = await create({
      side: 'Buy',
      orderType: 'Limit',
      qty: '0.001',
      price: '50000',
      orderLinkId: 'dup',
    });
    expect(again.body).toMatchObject({ retCode: 170141, retMsg: 'Duplicate clientOrderId' });
    await signed('POST', '/v5/order/cancel', trader, {
      category: 'spot',
      symbol: 'BTCUSDT',
      orderLinkId: 'dup',
    });
    const afterEnd = await create({
      side: 'Buy',
      orderType: 'Limit',
      qty: '0.001',
      price: '50000',
      orderLinkId: 'dup',
    });
    expect(afterEnd.body.retCode).toBe(170141);

    const poor = await create({ side: 'Buy', orderType: 'Limit', qty: '0.1', price: '50000' });
    expect(poor.status).toBe(200);
    expect(poor.body).toMatchObject({ retCode: 170131, retMsg: 'Balance insufficient' });
    const small = await create({ side: 'Buy', orderType: 'Limit', qty: '0.00001', price: '50000' });
    expect(small.body).toMatchObject({ retCode: 170140, retMsg: 'Order value exceeded lower limit' });
    const smallMarket = await create({ side: 'Buy', orderType: 'Market', qty: '1' });
    expect(smallMarket.body.retCode).toBe(170140);

    // Above five times the 5-minute average price (the core's band): the bound in Bybit's words.
    const high = await create({ side: 'Buy', orderType: 'Limit', qty: '0.001', price: '350000' });
    expect(high.body.retCode).toBe(170193);
    expect(high.body.retMsg).toMatch(/^Buy order price cannot be higher than \d+(\.\d+)?\.$/);

    sandbox.exchange.setStatus('BTCUSDT', 'HALT');
    try {
      const closed = await create({ side: 'Buy', orderType: 'Limit', qty: '0.001', price: '50000' });
      expect(closed.body).toMatchObject({
        retCode: 170157,
        retMsg: 'The trading pair is not available for api trading',
      });
    } finally {
      sandbox.exchange.setStatus('BTCUSDT', 'TRADING');
    }

    const unknown = await signed('POST', '/v5/order/cancel', trader, {
      category: 'spot',
      symbol: 'BTCUSDT',
      orderId: '999999999',
    });
    expect(unknown.body).toMatchObject({ retCode: 170213, retMsg: 'Order does not exist.' });
  });

  it('bybit-api submits, lists and cancels an order', async () => {
    const client = sdk(trader);
    const placed = await client.submitOrder({
      category: 'spot',
      symbol: 'BTCUSDT',
      side: 'Buy',
      orderType: 'Limit',
      qty: '0.001',
      price: '58000',
      timeInForce: 'GTC',
      orderLinkId: 'sdk-1',
    });
    expect(placed.retCode).toBe(0);
    expect(placed.result).toEqual({ orderId: expect.stringMatching(/^\d+$/), orderLinkId: 'sdk-1' });
    const active = await client.getActiveOrders({ category: 'spot', symbol: 'BTCUSDT' });
    expect(active.result.list).toEqual([
      expect.objectContaining({
        orderId: placed.result.orderId,
        orderLinkId: 'sdk-1',
        orderStatus: 'New',
        side: 'Buy',
        price: '58000',
        qty: '0.001',
        leavesQty: '0.001',
        timeInForce: 'GTC',
      }),
    ]);
    const cancelled = await client.cancelOrder({ category: 'spot', symbol: 'BTCUSDT', orderLinkId: 'sdk-1' });
    expect(cancelled).toMatchObject({ retCode: 0, result: { orderId: placed.result.orderId } });
    const again = await client.cancelOrder({ category: 'spot', symbol: 'BTCUSDT', orderLinkId: 'sdk-1' });
    expect(again).toMatchObject({ retCode: 170142, retMsg: 'Order has been cancelled' });
  });
});
