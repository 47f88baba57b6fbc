import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxExchangeHandle, startSandboxExchange } from '../src/index';
import { type Credentials, limitOrder, signed } from './support/binance-http';
import { FIXED_BTC_USDT } from './support/markets';

let sandbox: SandboxExchangeHandle;
let trader: Credentials;

const balance = (asset: string) => {
  const found = sandbox.control.account(trader.apiKey).balances.find((b) => b.asset === asset);
  return found ?? { asset, free: '0.00000000', locked: '0.00000000' };
};
const post = (params: Record<string, string>) => signed(sandbox.url, 'POST', '/api/v3/order', trader, params);

beforeAll(async () => {
  sandbox = await startSandboxExchange({
    port: 0,
    markets: [
      FIXED_BTC_USDT,
      {
        base: 'XRP',
        quote: 'USDT',
        tickSize: '0.0001',
        stepSize: '0.1',
        minQty: '1',
        minNotional: '5',
        feed: { kind: 'fixed', price: '0.5' },
        liquidity: 'infinite',
      },
    ],
  });
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
  sandbox.control.setPrice('BTCUSDT', '60000');
  sandbox.control.setPrice('XRPUSDT', '0.5');
});

describe('market orders', () => {
  it('buys for a quote amount (quoteOrderQty) at the current price, fee 0.1 % in the coin received', async () => {
    const { status, body } = await post({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quoteOrderQty: '100',
    });
    expect(status).toBe(200);
    // 100 / 60000 = 0.0016666… → 0.00166 at the 0.00001 lot step; it costs 99.6 USDT.
    expect(body).toMatchObject({
      status: 'FILLED',
      type: 'MARKET',
      executedQty: '0.00166000',
      cummulativeQuoteQty: '99.60000000',
    });
    expect(body.fills).toEqual([
      {
        price: '60000.00000000',
        qty: '0.00166000',
        commission: '0.00000166',
        commissionAsset: 'BTC',
        tradeId: expect.any(Number),
      },
    ]);
    expect(balance('USDT')).toMatchObject({ free: '900.40000000', locked: '0.00000000' });
    expect(balance('BTC').free).toBe('0.00165834');
  });

  it('sells a quantity, fee taken from the USDT received', async () => {
    sandbox.control.setBalances(trader.apiKey, { BTC: '0.01' });
    const { body } = await post({ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.01' });
    expect(body.fills[0]).toMatchObject({
      qty: '0.01000000',
      commission: '0.60000000',
      commissionAsset: 'USDT',
    });
    expect(balance('USDT').free).toBe('1599.40000000');
    expect(balance('BTC').free).toBe('0.00000000');
  });
});

describe('limit orders', () => {
  it('rests a buy with its cost locked, then fills it at its own price when the price falls through it', async () => {
    const placed = await post(limitOrder('BTCUSDT', 'BUY', '0.001', '59000', 'lot-1-buy'));
    expect(placed.body).toMatchObject({
      status: 'NEW',
      price: '59000.00000000',
      clientOrderId: 'lot-1-buy',
      fills: [],
    });
    expect(balance('USDT')).toEqual({ asset: 'USDT', free: '941.00000000', locked: '59.00000000' });

    expect(sandbox.control.setPrice('BTCUSDT', '59500')).toEqual([]);
    const fills = sandbox.control.setPrice('BTCUSDT', '58800');
    expect(fills).toHaveLength(1);
    expect(fills[0]).toMatchObject({
      price: '59000.00000000',
      qty: '0.00100000',
      commission: '0.00000100',
      isMaker: true,
    });

    const order = await signed(sandbox.url, 'GET', '/api/v3/order', trader, {
      symbol: 'BTCUSDT',
      origClientOrderId: 'lot-1-buy',
    });
    expect(order.body).toMatchObject({
      status: 'FILLED',
      executedQty: '0.00100000',
      cummulativeQuoteQty: '59.00000000',
    });
    expect(balance('USDT')).toEqual({ asset: 'USDT', free: '941.00000000', locked: '0.00000000' });
    expect(balance('BTC').free).toBe('0.00099900');
  });

  it('takes profit: a resting sell locks the coin and fills when the price rises to it', async () => {
    sandbox.control.setBalances(trader.apiKey, { BTC: '0.002' });
    await post(limitOrder('BTCUSDT', 'SELL', '0.002', '60600', 'lot-1-tp'));
    expect(balance('BTC')).toEqual({ asset: 'BTC', free: '0.00000000', locked: '0.00200000' });
    sandbox.control.setPrice('BTCUSDT', '61000');
    // 0.002 × 60600 = 121.2 USDT, minus 0.1 % = 121.0788.
    expect(balance('USDT').free).toBe('1121.07880000');
    expect(balance('BTC')).toEqual({ asset: 'BTC', free: '0.00000000', locked: '0.00000000' });
    const trades = await signed(sandbox.url, 'GET', '/api/v3/myTrades', trader, { symbol: 'BTCUSDT' });
    expect(trades.body).toEqual([
      expect.objectContaining({
        price: '60600.00000000',
        qty: '0.00200000',
        quoteQty: '121.20000000',
        commission: '0.12120000',
        commissionAsset: 'USDT',
        isBuyer: false,
        isMaker: true,
      }),
    ]);
  });

  it('fills a limit that is marketable on arrival at the current price and releases the rest of the lock', async () => {
    const { body } = await post(limitOrder('BTCUSDT', 'BUY', '0.001', '61000'));
    expect(body).toMatchObject({ status: 'FILLED', cummulativeQuoteQty: '60.00000000' });
    expect(body.fills[0].price).toBe('60000.00000000');
    expect(balance('USDT')).toEqual({ asset: 'USDT', free: '940.00000000', locked: '0.00000000' });
  });

  it('cancels and unlocks; a second cancel and a lookup of a stranger answer -2011 / -2013', async () => {
    const placed = await post(limitOrder('BTCUSDT', 'BUY', '0.001', '50000', 'to-cancel'));
    const cancel = () =>
      signed(sandbox.url, 'DELETE', '/api/v3/order', trader, {
        symbol: 'BTCUSDT',
        orderId: String(placed.body.orderId),
      });
    const first = await cancel();
    expect(first.body).toMatchObject({ status: 'CANCELED', origClientOrderId: 'to-cancel' });
    expect(balance('USDT')).toEqual({ asset: 'USDT', free: '1000.00000000', locked: '0.00000000' });
    expect(await cancel()).toEqual({ status: 400, body: { code: -2011, msg: 'Unknown order sent.' } });
    const missing = await signed(sandbox.url, 'GET', '/api/v3/order', trader, {
      symbol: 'BTCUSDT',
      orderId: '999999',
    });
    expect(missing).toEqual({ status: 400, body: { code: -2013, msg: 'Order does not exist.' } });
  });

  it('refuses a second open order with the same client id, and accepts it again once the first is gone', async () => {
    await post(limitOrder('BTCUSDT', 'BUY', '0.001', '50000', 'same-id'));
    const again = await post(limitOrder('BTCUSDT', 'BUY', '0.001', '50000', 'same-id'));
    expect(again).toEqual({ status: 400, body: { code: -2010, msg: 'Duplicate order sent.' } });
    await signed(sandbox.url, 'DELETE', '/api/v3/order', trader, {
      symbol: 'BTCUSDT',
      origClientOrderId: 'same-id',
    });
    expect((await post(limitOrder('BTCUSDT', 'BUY', '0.001', '50000', 'same-id'))).status).toBe(200);
    const open = await signed(sandbox.url, 'GET', '/api/v3/openOrders', trader, { symbol: 'BTCUSDT' });
    expect(open.body).toHaveLength(1);
    const all = await signed(sandbox.url, 'GET', '/api/v3/allOrders', trader, { symbol: 'BTCUSDT' });
    expect(all.body.map((o: { status: string }) => o.status)).toEqual(['CANCELED', 'NEW']);
  });

  it('answers ACK and RESULT response types', async () => {
    const ack = await post({ ...limitOrder('BTCUSDT', 'BUY', '0.001', '50000'), newOrderRespType: 'ACK' });
    expect(Object.keys(ack.body).sort()).toEqual([
      'clientOrderId',
      'orderId',
      'orderListId',
      'symbol',
      'transactTime',
    ]);
    const result = await post({
      ...limitOrder('BTCUSDT', 'BUY', '0.001', '50000'),
      newOrderRespType: 'RESULT',
    });
    expect(result.body.status).toBe('NEW');
    expect(result.body.fills).toBeUndefined();
  });
});

describe('rejections with Binance codes', () => {
  it.each([
    [
      'order value under minNotional',
      limitOrder('BTCUSDT', 'BUY', '0.00001', '60000'),
      -1013,
      'Filter failure: NOTIONAL',
    ],
    [
      'quantity off the lot step',
      limitOrder('BTCUSDT', 'BUY', '0.000015', '60000'),
      -1013,
      'Filter failure: LOT_SIZE',
    ],
    ['quantity under minQty', limitOrder('XRPUSDT', 'BUY', '0.5', '20'), -1013, 'Filter failure: LOT_SIZE'],
    [
      'price off the tick',
      limitOrder('BTCUSDT', 'BUY', '0.001', '59000.005'),
      -1013,
      'Filter failure: PRICE_FILTER',
    ],
    [
      'a malformed number',
      limitOrder('BTCUSDT', 'BUY', '1e-3', '59000'),
      -1100,
      expect.stringContaining("'quantity'"),
    ],
    [
      'a limit without price',
      { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1' },
      -1102,
      expect.stringContaining("'price'"),
    ],
    [
      'a market order with a price',
      { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.001', price: '1' },
      -1106,
      expect.any(String),
    ],
    [
      'a market order without amount',
      { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET' },
      -1102,
      expect.stringContaining('quoteOrderQty'),
    ],
    [
      'more than the balance',
      limitOrder('BTCUSDT', 'BUY', '1', '59000'),
      -2010,
      'Account has insufficient balance for requested action.',
    ],
    ['an unknown symbol', limitOrder('DOGEUSDT', 'BUY', '1', '1'), -1121, 'Invalid symbol.'],
  ])('refuses %s', async (_name, params, code, msg) => {
    const response = await post(params);
    expect(response).toEqual({ status: 400, body: { code, msg } });
    expect(sandbox.control.orders(trader.apiKey)).toHaveLength(0);
    expect(balance('USDT')).toMatchObject({ free: '1000.00000000', locked: '0.00000000' });
  });
});

describe('own trades', () => {
  it('lists them by order and refuses a time range over 24 hours (-1127)', async () => {
    const buy = await post({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quoteOrderQty: '50' });
    await post({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quoteOrderQty: '50' });
    const byOrder = await signed(sandbox.url, 'GET', '/api/v3/myTrades', trader, {
      symbol: 'BTCUSDT',
      orderId: String(buy.body.orderId),
    });
    expect(byOrder.body.map((t: { orderId: number }) => t.orderId)).toEqual([buy.body.orderId]);
    const now = Date.now();
    const tooLong = await signed(sandbox.url, 'GET', '/api/v3/myTrades', trader, {
      symbol: 'BTCUSDT',
      startTime: String(now - 2 * 86_400_000),
      endTime: String(now),
    });
    expect(tooLong.body).toEqual({ code: -1127, msg: 'More than 24 hours between startTime and endTime.' });
  });
});

describe('outages', () => {
  const account = () => signed(sandbox.url, 'GET', '/api/v3/account', trader, {});
  const order = () =>
    post({ symbol: 'XRPUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '0.4', quantity: '20' });

  it('answers 503 for a while without doing anything, then works again', async () => {
    sandbox.control.startOutage({ kind: 'error', forMs: 300 });
    expect((await account()).status).toBe(503);
    const refused = await order();
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: -1001 });
    expect(sandbox.control.orders(trader.apiKey)).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await account()).status).toBe(200);
    expect((await order()).status).toBe(200);
  });

  it('executes new orders but answers -1007 while the status is unknown', async () => {
    sandbox.control.startOutage({ kind: 'unknown', forMs: 300 });
    const answer = await order();
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ code: -1007 });
    // The order exists: only its answer was lost.
    expect(sandbox.control.orders(trader.apiKey)).toHaveLength(1);
    expect((await account()).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 350));
  });

  it('answers late while slow; the control API keeps answering', async () => {
    sandbox.control.startOutage({ kind: 'timeout', forMs: 1000, delayMs: 400 });
    const started = Date.now();
    expect((await fetch(`${sandbox.url}/_sandbox/markets`)).status).toBe(200);
    expect((await account()).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    await new Promise((resolve) => setTimeout(resolve, 700));
  });
});
