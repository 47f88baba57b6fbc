import { describe, expect, it } from 'vitest';
import { okx } from '../src/okx';
import { checkVenueTable } from './support/table-checks';

describe('venue table okx', () => {
  checkVenueTable(okx);
});

/** What a call costs, pool by pool. */
const cost = (method: string, path: string, query = '') =>
  okx.requestCost({ method, path, params: new URLSearchParams(query) });

const pool = (id: string) => okx.pools.find((p) => p.id === id);

describe('OKX request costs (docs/venues/okx.md#rate-limits)', () => {
  it('costs a placement, a cancel and a balance query in their own pools only', () => {
    expect(cost('POST', '/api/v5/trade/order')).toEqual({ PLACE_ORDER: 1 });
    expect(cost('post', '/api/v5/trade/order')).toEqual({ PLACE_ORDER: 1 });
    expect(cost('POST', '/api/v5/trade/cancel-order')).toEqual({ CANCEL_ORDER: 1 });
    expect(cost('GET', '/api/v5/account/balance', 'ccy=BTC,USDT')).toEqual({ BALANCE: 1 });
  });

  it('costs the reads of a grid and the key check per account, the public calls per IP', () => {
    expect(cost('GET', '/api/v5/trade/order', 'instId=BTC-USDT&clOrdId=gb1')).toEqual({ ORDER_DETAILS: 1 });
    expect(cost('GET', '/api/v5/trade/orders-pending', 'instType=SPOT')).toEqual({ ORDERS_PENDING: 1 });
    expect(cost('GET', '/api/v5/trade/fills', 'instType=SPOT')).toEqual({ FILLS: 1 });
    // ccxt's fetchMyTrades reads the last 3 months' endpoint, 10 per 2 s (not /trade/fills' 60).
    expect(cost('GET', '/api/v5/trade/fills-history', 'instType=SPOT&instId=BTC-USDT')).toEqual({
      FILLS_HISTORY: 1,
    });
    expect(pool('FILLS_HISTORY')).toMatchObject({ scope: 'account', limit: 10, windowMs: 2000 });
    expect(cost('GET', '/api/v5/account/config')).toEqual({ ACCOUNT_CONFIG: 1 });
    expect(cost('GET', '/api/v5/public/time')).toEqual({ SYSTEM_TIME: 1 });
    expect(cost('GET', '/api/v5/public/instruments', 'instType=SPOT')).toEqual({ INSTRUMENTS: 1 });
    for (const id of ['SYSTEM_TIME', 'INSTRUMENTS', 'TICKER', 'TICKERS', 'CANDLES']) {
      expect(pool(id)?.scope, id).toBe('ip');
    }
    for (const id of ['PLACE_ORDER', 'CANCEL_ORDER', 'ORDER_DETAILS', 'BALANCE', 'ACCOUNT_CONFIG']) {
      expect(pool(id)?.scope, id).toBe('account');
    }
  });

  it("costs a batch of one (ccxt's createOrder) as a placement, a longer batch by its orders", () => {
    const batch = (body: unknown) =>
      okx.requestCost({
        method: 'POST',
        path: '/api/v5/trade/batch-orders',
        params: new URLSearchParams(),
        body,
      });
    expect(batch([{ instId: 'BTC-USDT', side: 'buy' }])).toEqual({ PLACE_ORDER: 1 });
    expect(batch(undefined)).toEqual({ PLACE_ORDER: 1 });
    expect(batch([{}, {}, {}])).toEqual({ BATCH_ORDERS: 3 });
    expect(pool('BATCH_ORDERS')).toMatchObject({ scope: 'account', limit: 300, windowMs: 2000 });
  });

  it('shares the place and cancel budgets between REST and the WebSocket order operations', () => {
    expect(cost('WS', 'order')).toEqual({ PLACE_ORDER: 1 });
    expect(cost('WS', 'cancel-order')).toEqual({ CANCEL_ORDER: 1 });
  });

  it('costs nothing for a call it does not list, and hands out a fresh object each time', () => {
    expect(cost('GET', '/api/v5/asset/balances')).toEqual({});
    const first = cost('POST', '/api/v5/trade/order');
    first.PLACE_ORDER = 99;
    expect(cost('POST', '/api/v5/trade/order')).toEqual({ PLACE_ORDER: 1 });
  });

  it('has the documented limits, all per 2 seconds', () => {
    const limits = Object.fromEntries(okx.pools.map((p) => [p.id, p.limit]));
    expect(limits).toEqual({
      PLACE_ORDER: 60,
      BATCH_ORDERS: 300,
      CANCEL_ORDER: 60,
      ORDER_DETAILS: 60,
      ORDERS_PENDING: 60,
      FILLS: 60,
      FILLS_HISTORY: 10,
      BALANCE: 10,
      ACCOUNT_CONFIG: 5,
      SYSTEM_TIME: 10,
      INSTRUMENTS: 20,
      TICKER: 20,
      TICKERS: 20,
      CANDLES: 40,
    });
    for (const p of okx.pools) {
      expect(p.windowMs, p.id).toBe(2000);
      expect(p.interval, p.id).toEqual({ unit: 'SECOND', num: 2 });
      expect(p.usageHeader, p.id).toBeUndefined();
    }
  });
});

describe('OKX codes (docs/venues/okx.md#errors)', () => {
  const code = (c: string) => okx.errors.codes[c];

  it('reads code and msg, "0" as success, and the per-order sCode', () => {
    expect(okx.errors).toMatchObject({
      codeField: 'code',
      messageField: 'msg',
      okCode: '0',
      orderCodeField: 'sCode',
    });
  });

  it('throttles on 50011 (HTTP 429) and the other rate-limit codes', () => {
    expect(code('50011')).toMatchObject({ outcome: 'throttled', status: 429 });
    expect(code('50061')?.outcome).toBe('throttled');
    expect(code('50040')?.outcome).toBe('throttled');
    expect(okx.overLimit.throttledStatus).toBe(429);
  });

  it('maps the clock, order and balance codes the engine acts on', () => {
    expect(code('50102')).toMatchObject({
      outcome: 'clock',
      status: 401,
      message: 'Timestamp request expired.',
    });
    expect(code('51603')).toMatchObject({ outcome: 'not-found', message: 'Order does not exist.' });
    expect(code('51400')?.outcome).toBe('not-found');
    expect(code('51016')).toMatchObject({ outcome: 'duplicate', message: 'Client order ID already exists.' });
    expect(code('51008')?.outcome).toBe('insufficient-balance');
    expect(code('51020')?.outcome).toBe('below-minimum');
    expect(code('51001')?.outcome).toBe('not-listed');
    expect(code('51000')).toMatchObject({ outcome: 'rejected', status: 400 });
  });

  it('tells a bad key from a key without permission', () => {
    for (const c of ['50110', '50111', '50112', '50113', '50105', '50101']) {
      expect(code(c)?.outcome, c).toBe('key-invalid');
    }
    expect(code('50113')?.status).toBe(401);
    for (const c of ['50120', '50121', '50030']) expect(code(c)?.outcome, c).toBe('permission');
  });

  it('treats the timeouts OKX calls neither success nor failure as unknown', () => {
    expect(code('50004')).toMatchObject({ outcome: 'unknown', status: 400 });
    expect(code('51149')).toMatchObject({ outcome: 'unknown', status: 500 });
    expect(code('50001')).toMatchObject({ outcome: 'unknown', status: 503 });
  });

  it("classifies a refused placement by its entry's sCode, as OKX answers it", () => {
    // The shape of a refused single order: top-level "1", the reason per order in data[].
    const answer = {
      code: '1',
      msg: 'Operation failed.',
      data: [{ clOrdId: 'gb1', ordId: '', sCode: '51016', sMsg: 'Client order ID already exists.' }],
    };
    const top = answer[okx.errors.codeField as 'code'];
    expect(top).not.toBe(okx.errors.okCode);
    const entry = answer.data[0] as Record<string, string>;
    expect(okx.errors.codes[entry[okx.errors.orderCodeField!]!]?.outcome).toBe('duplicate');
  });
});

describe('OKX client order ids (docs/venues/okx.md#client-order-ids)', () => {
  const { pattern } = okx.clientOrderId;

  it('takes 1 to 32 letters and digits, unique among open orders', () => {
    expect(okx.clientOrderId).toMatchObject({ field: 'clOrdId', maxLength: 32, uniqueAmong: 'open' });
    expect(pattern.test('b15')).toBe(true);
    expect(pattern.test('6b9ad766b55dBCDE63969a1144bfb943')).toBe(true);
    expect(pattern.test('1234567890')).toBe(true);
    expect(pattern.test('a'.repeat(32))).toBe(true);
  });

  it('refuses _, -, other signs and anything over 32', () => {
    expect(pattern.test('gb_1')).toBe(false);
    expect(pattern.test('gb-1')).toBe(false);
    expect(pattern.test('gb.1')).toBe(false);
    expect(pattern.test('gb 1')).toBe(false);
    expect(pattern.test('a'.repeat(33))).toBe(false);
    expect(pattern.test('')).toBe(false);
  });
});

describe('OKX keys, markets, clock and stream (docs/venues/okx.md)', () => {
  it('asks for a passphrase and checks a key with the account configuration', () => {
    expect(okx.keys.passphrase).toBe(true);
    expect(okx.keys.check).toEqual({ method: 'GET', path: '/api/v5/account/config' });
    expect(okx.keys.keyPattern.test('37c541a1-1a2b-3c4d-5e6f-10fe7a038418')).toBe(true);
    expect(okx.keys.keyPattern.test('37c541a110fe7a038418')).toBe(false);
    expect(okx.keys.secretPattern.test('22582BD0CFF14C41EDBF1AB98506286D')).toBe(true);
    expect(okx.keys.secretPattern.test('22582BD0CFF14C41EDBF1AB98506286')).toBe(false);
    expect(okx.keys.passphrasePattern?.test('Grid#Bot2026')).toBe(true);
    expect(okx.keys.passphrasePattern?.test('a'.repeat(33))).toBe(false);
  });

  it('lists spot markets from the instruments call, trading while live', () => {
    expect(okx.markets).toMatchObject({
      list: { method: 'GET', path: '/api/v5/public/instruments' },
      statusField: 'state',
      tradingStatus: 'live',
    });
    expect(okx.defaultMaxOpenOrdersPerSymbol).toBe(500);
  });

  it('has a fixed 30-second clock window and no ban', () => {
    expect(okx.clock).toMatchObject({
      defaultRecvWindowMs: 30_000,
      maxRecvWindowMs: 30_000,
      aheadToleranceMs: 30_000,
    });
    expect(okx.overLimit).toMatchObject({
      bannedStatus: null,
      retryAfterHeader: '',
      firstBanMs: 0,
      maxBanMs: 0,
    });
  });

  it('allows 3 WebSocket connections per second per IP', () => {
    expect(okx.userStream).toMatchObject({ connectionsPerWindow: 3, connectionWindowMs: 1000 });
  });

  it('names what it could not verify', () => {
    expect(okx.unverified).toEqual(
      expect.arrayContaining([
        'keys.secretPattern',
        'overLimit.retryAfterHeader',
        'userStream.connectionLifeMs',
        'userStream.subscriptionsPerConnection',
        'userStream.subscriptionsPerConnectionLifetime',
        'errors.codes.50001.outcome',
      ]),
    );
  });
});
