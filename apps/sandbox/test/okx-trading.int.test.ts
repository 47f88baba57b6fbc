import ccxt from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxExchangeHandle, startSandboxExchange } from '../src/index';
import { FIXED_BTC_USDT } from './support/markets';
import { ccxtOkx as ccxtOkxAt, type OkxCredentials, okxGet, okxSigned } from './support/okx-clients';

/**
 * Trading on the OKX v5 dialect with ccxt's `okx` class, the per-order refusals (HTTP 200, code
 * "1", the reason in data[0].sCode/sMsg) and the signing, clock and rate-limit refusals, in the
 * shapes of ccxt's recorded OKX answers (ccxt/ccxt ts/src/test/static/response/okx.json).
 */
let sandbox: SandboxExchangeHandle;

const ccxtOkx = (credentials: OkxCredentials) => ccxtOkxAt(sandbox.okxUrl, credentials);
const signed = (
  method: 'GET' | 'POST',
  path: string,
  credentials: OkxCredentials,
  body?: unknown,
  options?: Parameters<typeof okxSigned>[5],
) => okxSigned(sandbox.okxUrl, method, path, credentials, body, options);

const limitBuy = (extra: Record<string, string> = {}) => ({
  instId: 'BTC-USDT',
  tdMode: 'cash',
  side: 'buy',
  ordType: 'limit',
  sz: '0.001',
  px: '50000',
  ...extra,
});

beforeAll(async () => {
  sandbox = await startSandboxExchange({
    port: 0,
    okxPort: 0,
    markets: [FIXED_BTC_USDT],
    okxLimits: { ACCOUNT_CONFIG: 3 },
  });
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  sandbox.control.setPrice('BTCUSDT', '60000');
});

describe('the order lifecycle through ccxt', () => {
  it('places a limit order, finds it open, fetches it, cancels it', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    const exchange = ccxtOkx(trader);
    const placed = await exchange.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 50000, {
      clientOrderId: 'gridA1',
    });
    expect(placed).toMatchObject({ clientOrderId: 'gridA1' });
    expect(placed.id).toMatch(/^\d+$/);
    const open = await exchange.fetchOpenOrders('BTC/USDT');
    expect(open.map((o) => o.id)).toEqual([placed.id]);
    expect(open[0]).toMatchObject({
      status: 'open',
      type: 'limit',
      side: 'buy',
      price: 50000,
      amount: 0.001,
    });
    const fetched = await exchange.fetchOrder(String(placed.id), 'BTC/USDT');
    expect(fetched).toMatchObject({
      id: placed.id,
      clientOrderId: 'gridA1',
      status: 'open',
      filled: 0,
      remaining: 0.001,
    });
    const byClientId = await signed('GET', '/api/v5/trade/order?instId=BTC-USDT&clOrdId=gridA1', trader);
    expect(byClientId.body.data[0]).toMatchObject({
      ordId: placed.id,
      state: 'live',
      tdMode: 'cash',
      fee: '0',
    });
    await exchange.cancelOrder(String(placed.id), 'BTC/USDT');
    expect(await exchange.fetchOpenOrders('BTC/USDT')).toEqual([]);
    expect((await exchange.fetchOrder(String(placed.id), 'BTC/USDT')).status).toBe('canceled');
    // The id may be used again once its order has ended (docs/venues/okx.md#client-order-ids).
    const again = await exchange.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 50000, {
      clientOrderId: 'gridA1',
    });
    expect(again.id).not.toBe(placed.id);
  });

  it('fills a limit order the price crosses: fee negative in the coin received, fills listed', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    const exchange = ccxtOkx(trader);
    const placed = await exchange.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 59000);
    sandbox.control.setPrice('BTCUSDT', '58900');
    const order = await exchange.fetchOrder(String(placed.id), 'BTC/USDT');
    expect(order).toMatchObject({ status: 'closed', filled: 0.001, average: 59000 });
    expect(order.fee).toMatchObject({ currency: 'BTC', cost: 0.000001 });
    const raw = await signed('GET', `/api/v5/trade/order?instId=BTC-USDT&ordId=${placed.id}`, trader);
    expect(raw.body.data[0]).toMatchObject({
      state: 'filled',
      fee: '-0.000001',
      feeCcy: 'BTC',
      accFillSz: '0.001',
    });
    const trades = await exchange.fetchMyTrades('BTC/USDT');
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({
      order: placed.id,
      side: 'buy',
      price: 59000,
      amount: 0.001,
      takerOrMaker: 'maker',
    });
    expect(trades[0]?.fee).toMatchObject({ currency: 'BTC', cost: 0.000001 });
    const fills = await signed('GET', '/api/v5/trade/fills?instType=SPOT', trader);
    expect(fills.body.data[0]).toMatchObject({
      ordId: placed.id,
      execType: 'M',
      fee: '-0.000001',
      feeRate: '-0.001',
    });
    const closed = await exchange.fetchClosedOrders('BTC/USDT');
    expect(closed.map((o) => o.id)).toContain(placed.id);
  });

  it('a market buy spends quote by default (tgtCcy quote_ccy), a market sell sells base', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000', BTC: '0.01' } });
    const buy = await signed('POST', '/api/v5/trade/order', trader, {
      instId: 'BTC-USDT',
      tdMode: 'cash',
      side: 'buy',
      ordType: 'market',
      sz: '60',
    });
    expect(buy.status).toBe(200);
    expect(buy.body).toMatchObject({ code: '0', msg: '' });
    expect(buy.body.data[0]).toMatchObject({ sCode: '0', sMsg: 'Order placed', clOrdId: '' });
    const ordId = String(buy.body.data[0]?.ordId);
    const order = await signed('GET', `/api/v5/trade/order?instId=BTC-USDT&ordId=${ordId}`, trader);
    expect(order.body.data[0]).toMatchObject({
      state: 'filled',
      sz: '60',
      tgtCcy: 'quote_ccy',
      accFillSz: '0.001',
      ordType: 'market',
    });
    const exchange = ccxtOkx(trader);
    const sell = await exchange.createOrder('BTC/USDT', 'market', 'sell', 0.002);
    const sold = await exchange.fetchOrder(String(sell.id), 'BTC/USDT');
    expect(sold).toMatchObject({ status: 'closed', filled: 0.002, side: 'sell', type: 'market' });
    const ccxtBuy = await exchange.createOrder('BTC/USDT', 'market', 'buy', 0.001, undefined, {
      tgtCcy: 'base_ccy',
    });
    expect((await exchange.fetchOrder(String(ccxtBuy.id), 'BTC/USDT')).filled).toBe(0.001);
  });

  it('pages the pending orders newest first by ordId (after, before, limit)', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const { body } = await signed(
        'POST',
        '/api/v5/trade/order',
        trader,
        limitBuy({ px: String(50000 - i) }),
      );
      ids.push(String(body.data[0]?.ordId));
    }
    const first = await signed('GET', '/api/v5/trade/orders-pending?instType=SPOT&limit=2', trader);
    expect(first.body.data.map((o) => o.ordId)).toEqual([ids[3], ids[2]]);
    const next = await signed(
      'GET',
      `/api/v5/trade/orders-pending?instType=SPOT&limit=2&after=${ids[2]}`,
      trader,
    );
    expect(next.body.data.map((o) => o.ordId)).toEqual([ids[1], ids[0]]);
    const newer = await signed('GET', `/api/v5/trade/orders-pending?before=${ids[1]}`, trader);
    expect(newer.body.data.map((o) => o.ordId)).toEqual([ids[3], ids[2]]);
  });
});

describe('refusals per order: HTTP 200, code "1", the reason in data[0].sCode/sMsg', () => {
  it('insufficient funds: 51008 naming the coin, ccxt InsufficientFunds', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '10' } });
    const { status, body } = await signed(
      'POST',
      '/api/v5/trade/order',
      trader,
      limitBuy({ clOrdId: 'poor1' }),
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ code: '1', msg: 'Operation failed.' });
    expect(body.data[0]).toMatchObject({
      clOrdId: 'poor1',
      ordId: '',
      sCode: '51008',
      sMsg: 'Order failed. Insufficient USDT balance in account',
    });
    await expect(
      ccxtOkx(trader).createOrder('BTC/USDT', 'limit', 'buy', 0.001, 50000),
    ).rejects.toBeInstanceOf(ccxt.InsufficientFunds);
  });

  it('a size below minSz or off the lot: 51020 / 51121, ccxt InvalidOrder', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    const small = await signed(
      'POST',
      '/api/v5/trade/order',
      trader,
      limitBuy({ sz: '0.00005', px: '50000' }),
    );
    expect(small.body.data[0]).toMatchObject({ sCode: '51020' });
    const offLot = await signed('POST', '/api/v5/trade/order', trader, limitBuy({ sz: '0.0010001' }));
    expect(offLot.body.data[0]).toMatchObject({
      sCode: '51121',
      sMsg: 'Order quantity must be a multiple of the lot size.',
    });
    await expect(
      ccxtOkx(trader).createOrder('BTC/USDT', 'limit', 'buy', 0.00001, 50000),
    ).rejects.toBeInstanceOf(ccxt.InvalidOrder);
  });

  it('a pending clOrdId again: 51016; a cancel of an ended or unknown order: 51400 (OrderNotFound)', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    await signed('POST', '/api/v5/trade/order', trader, limitBuy({ clOrdId: 'dup1' }));
    const dup = await signed('POST', '/api/v5/trade/order', trader, limitBuy({ clOrdId: 'dup1' }));
    expect(dup.body.data[0]).toMatchObject({ sCode: '51016', sMsg: 'Client order ID already exists.' });
    const bad = await signed('POST', '/api/v5/trade/order', trader, limitBuy({ clOrdId: 'no_underscores' }));
    expect(bad.body.data[0]).toMatchObject({ sCode: '51000', sMsg: 'Parameter clOrdId error' });
    const cancel = await signed('POST', '/api/v5/trade/cancel-order', trader, {
      instId: 'BTC-USDT',
      ordId: '999999',
    });
    expect(cancel.body).toMatchObject({ code: '1' });
    expect(cancel.body.data[0]).toMatchObject({ sCode: '51400', ordId: '999999' });
    await expect(ccxtOkx(trader).cancelOrder('999999', 'BTC/USDT')).rejects.toBeInstanceOf(
      ccxt.OrderNotFound,
    );
    const missing = await signed('GET', '/api/v5/trade/order?instId=BTC-USDT&ordId=999999', trader);
    expect(missing.body).toMatchObject({ code: '51603', msg: 'Order does not exist.' });
  });

  it('a market that is not live: 51022 suspended, 51021 not yet listed', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    try {
      sandbox.exchange.setStatus('BTCUSDT', 'HALT');
      const halted = await signed('POST', '/api/v5/trade/order', trader, limitBuy());
      expect(halted.body.data[0]).toMatchObject({ sCode: '51022' });
      sandbox.exchange.setStatus('BTCUSDT', 'PRE_TRADING');
      const early = await signed('POST', '/api/v5/trade/order', trader, limitBuy());
      expect(early.body.data[0]).toMatchObject({ sCode: '51021' });
    } finally {
      sandbox.exchange.setStatus('BTCUSDT', 'TRADING');
    }
  });
});

describe('signing, clock and limits', () => {
  it('refuses a wrong signature, key, passphrase or missing header with the table codes (HTTP 401)', async () => {
    const trader = sandbox.control.createAccount({});
    const path = '/api/v5/account/balance';
    const sign = await signed('GET', path, trader, undefined, { sign: 'AAAA' });
    expect(sign).toMatchObject({ status: 401, body: { code: '50113', msg: 'Invalid signature.' } });
    const key = await signed('GET', path, { ...trader, apiKey: 'nobody' });
    expect(key).toMatchObject({ status: 401, body: { code: '50111', msg: 'Invalid OK-ACCESS-KEY.' } });
    const passphrase = await signed('GET', path, trader, undefined, { passphrase: 'wrong' });
    expect(passphrase.body).toMatchObject({ code: '50105' });
    const bare = await signed('GET', path, trader, undefined, { omit: ['OK-ACCESS-PASSPHRASE'] });
    expect(bare.body).toMatchObject({ code: '50104' });
    const wrongSecret = ccxtOkx({ ...trader, secret: 'not-the-secret' });
    await expect(wrongSecret.fetchBalance()).rejects.toBeInstanceOf(ccxt.AuthenticationError);
  });

  it('refuses a timestamp 30 s off (50102) or not ISO with ms (50112); ccxt InvalidNonce', async () => {
    const trader = sandbox.control.createAccount({});
    const path = '/api/v5/account/balance';
    const late = new Date(Date.now() - 31_000).toISOString();
    expect((await signed('GET', path, trader, undefined, { timestamp: late })).body).toMatchObject({
      code: '50102',
      msg: 'Timestamp request expired.',
    });
    const unix = String(Date.now());
    expect((await signed('GET', path, trader, undefined, { timestamp: unix })).body.code).toBe('50112');
    sandbox.exchange.skewClock(60_000);
    try {
      await expect(ccxtOkx(trader).fetchBalance()).rejects.toBeInstanceOf(ccxt.InvalidNonce);
    } finally {
      sandbox.exchange.skewClock(0);
    }
  });

  it('answers a key bound to other IPs with 50110, and takes the demo-trading header', async () => {
    const trader = sandbox.control.createAccount({ ipWhitelist: ['203.0.113.7'] });
    const { body } = await signed('GET', '/api/v5/account/balance', trader);
    expect(body.code).toBe('50110');
    expect(body.msg).toContain('127.0.0.1');
    const demo = sandbox.control.createAccount({ balances: { USDT: '5' } });
    const answer = await signed('GET', '/api/v5/account/balance', demo, undefined, {
      headers: { 'x-simulated-trading': '1' },
    });
    expect(answer.body.code).toBe('0');
  });

  it('over a pool: 50011 with HTTP 429, per account for private calls', async () => {
    const trader = sandbox.control.createAccount({});
    const other = sandbox.control.createAccount({});
    const answers = [];
    for (let i = 0; i < 8; i += 1) answers.push(await signed('GET', '/api/v5/account/config', trader));
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]?.body).toMatchObject({ code: '50011', msg: 'Too Many Requests' });
    // Another account has its own budget.
    expect((await signed('GET', '/api/v5/account/config', other)).status).toBe(200);
    const time = await okxGet(sandbox.okxUrl, '/api/v5/public/time');
    expect(time.status).toBe(200);
  });
});
