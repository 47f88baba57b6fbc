import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bybit } from '../src/bybit';
import { checkVenueTable } from './support/table-checks';

describe('venue table bybit', () => {
  checkVenueTable(bybit);
});

const cost = (method: string, path: string, query = '') =>
  bybit.requestCost({ method, path, params: new URLSearchParams(query) });

const pool = (id: string) => bybit.pools.find((p) => p.id === id);

describe('Bybit rate limits (docs/venues/bybit.md#rate-limits)', () => {
  it('counts 600 requests per 5 s per IP, with no usage header', () => {
    expect(pool('IP_5S')).toMatchObject({
      scope: 'ip',
      limit: 600,
      windowMs: 5000,
      interval: { unit: 'SECOND', num: 5 },
    });
    expect(pool('IP_5S')!.usageHeader).toBeUndefined();
  });

  it('has the spot per-UID budgets a second, each reported in X-Bapi-Limit-Status', () => {
    const perSecond = {
      ORDER_CREATE: 20,
      ORDER_CANCEL: 20,
      ORDER_CANCEL_ALL: 20,
      ORDER_AMEND: 10,
      ORDER_CREATE_BATCH: 20,
      ORDER_REALTIME: 50,
      ORDER_HISTORY: 50,
      EXECUTION_LIST: 50,
      WALLET_BALANCE: 50,
      ACCOUNT_INFO: 50,
      FEE_RATE: 5,
      USER_QUERY_API: 10,
    };
    for (const [id, limit] of Object.entries(perSecond)) {
      expect(pool(id), id).toMatchObject({
        scope: 'account',
        limit,
        windowMs: 1000,
        usageHeader: 'x-bapi-limit-status',
        usageHeaderCounts: 'left',
        limitHeader: 'x-bapi-limit',
        interval: { unit: 'SECOND', num: 1 },
      });
    }
  });

  it('costs a placement in the IP pool and the order-create pool', () => {
    expect(cost('POST', '/v5/order/create')).toEqual({ IP_5S: 1, ORDER_CREATE: 1 });
  });

  it('counts a batch sent as a JSON body by its orders', () => {
    const body = { category: 'spot', request: [{}, {}, {}, {}] };
    expect(
      bybit.requestCost({
        method: 'POST',
        path: '/v5/order/create-batch',
        params: new URLSearchParams(),
        body,
      }),
    ).toEqual({ IP_5S: 1, ORDER_CREATE_BATCH: 4 });
  });

  it('costs a cancel in the IP pool and the cancel pool, not in order-create', () => {
    expect(cost('POST', '/v5/order/cancel')).toEqual({ IP_5S: 1, ORDER_CANCEL: 1 });
  });

  it('costs a balance query, an order query and a trade query in their own pools', () => {
    expect(cost('GET', '/v5/account/wallet-balance', 'accountType=UNIFIED')).toEqual({
      IP_5S: 1,
      WALLET_BALANCE: 1,
    });
    expect(cost('GET', '/v5/order/realtime', 'category=spot&orderLinkId=g1')).toEqual({
      IP_5S: 1,
      ORDER_REALTIME: 1,
    });
    expect(cost('GET', '/v5/execution/list', 'category=spot')).toEqual({ IP_5S: 1, EXECUTION_LIST: 1 });
    expect(cost('GET', '/v5/user/query-api')).toEqual({ IP_5S: 1, USER_QUERY_API: 1 });
  });

  it('costs public market calls in the IP pool only', () => {
    expect(cost('GET', '/v5/market/time')).toEqual({ IP_5S: 1 });
    expect(cost('GET', '/v5/market/instruments-info', 'category=spot')).toEqual({ IP_5S: 1 });
  });

  it('counts a batch placement by its orders', () => {
    const request = JSON.stringify([{ symbol: 'BTCUSDT' }, { symbol: 'BTCUSDT' }, { symbol: 'ETHUSDT' }]);
    expect(cost('POST', '/v5/order/create-batch', `request=${encodeURIComponent(request)}`)).toEqual({
      IP_5S: 1,
      ORDER_CREATE_BATCH: 3,
    });
    expect(cost('POST', '/v5/order/create-batch')).toEqual({ IP_5S: 1, ORDER_CREATE_BATCH: 1 });
  });

  it('charges nothing for private stream messages', () => {
    expect(cost('WS', 'auth')).toEqual({});
  });
});

describe('Bybit errors (docs/venues/bybit.md#errors)', () => {
  const code = (c: string) => bybit.errors.codes[c];

  it('reads retCode and retMsg, success 0', () => {
    expect(bybit.errors).toMatchObject({ codeField: 'retCode', messageField: 'retMsg', okCode: '0' });
  });

  it('treats 10006 as throttled, in an HTTP 200 answer', () => {
    expect(code('10006')).toEqual({ outcome: 'throttled', status: 200, message: 'Too many visits!' });
    expect(code('10018')?.outcome).toBe('throttled');
    expect(code('170005')?.outcome).toBe('throttled');
    expect(code('170222')?.outcome).toBe('throttled');
  });

  it('treats 10002 as a clock error', () => {
    expect(code('10002')).toMatchObject({
      outcome: 'clock',
      message: 'The request time exceeds the time window range.',
    });
  });

  it('knows a missing order, a taken orderLinkId and a short balance', () => {
    expect(code('170213')).toMatchObject({ outcome: 'not-found', message: 'Order does not exist.' });
    expect(code('110001')?.outcome).toBe('not-found');
    expect(code('170141')).toMatchObject({ outcome: 'duplicate', message: 'Duplicate clientOrderId' });
    expect(code('110072')?.outcome).toBe('duplicate');
    expect(code('170131')).toMatchObject({
      outcome: 'insufficient-balance',
      message: 'Balance insufficient',
    });
  });

  it('tells minimums, symbols and closed markets apart', () => {
    expect(code('170140')?.outcome).toBe('below-minimum');
    expect(code('170136')?.outcome).toBe('below-minimum');
    expect(code('110094')?.outcome).toBe('below-minimum');
    expect(code('170121')?.outcome).toBe('not-listed');
    expect(code('170151')?.outcome).toBe('market-closed');
    expect(code('170157')?.outcome).toBe('market-closed');
  });

  it('tells a bad key from a key that may not do this', () => {
    for (const c of ['10003', '10004', '10007', '-2015']) expect(code(c)?.outcome, c).toBe('key-invalid');
    for (const c of ['10005', '10010', '10028']) expect(code(c)?.outcome, c).toBe('permission');
  });

  it('looks an order up after a timeout or a server error', () => {
    for (const c of ['10000', '10016', '170001', '170007', '170146', '170147', '170212']) {
      expect(code(c)?.outcome, c).toBe('unknown');
    }
  });

  it('reads an unlisted spot trade code (170xxx) as a refusal, any other as the default', () => {
    expect(bybit.errors.otherwise?.('170999')).toBe('rejected');
    expect(bybit.errors.otherwise?.('10099')).toBe('unavailable');
  });

  it('sends every code with HTTP 200 but an invalid key, 10003, with 401 (error.mdx "HTTP code")', () => {
    for (const [c, entry] of Object.entries(bybit.errors.codes))
      expect(entry.status, c).toBe(c === '10003' ? 401 : 200);
  });
});

describe('Bybit rules (docs/venues/bybit.md)', () => {
  it('answers a per-UID overrun with 200 and bans an IP with 403 for 10 minutes', () => {
    expect(bybit.overLimit).toMatchObject({
      throttledStatus: 200,
      bannedStatus: 403,
      retryAfterHeader: '',
      resetAtHeader: 'x-bapi-limit-reset-timestamp',
      throttledScope: 'pool',
      firstBanMs: 10 * 60_000,
    });
    expect(bybit.overLimit.maxBanMs).toBeGreaterThanOrEqual(bybit.overLimit.firstBanMs);
  });

  it('takes a timestamp within the 5 s default window and at most 1 s ahead', () => {
    expect(bybit.clock).toMatchObject({ defaultRecvWindowMs: 5000, aheadToleranceMs: 1000 });
  });

  it('takes orderLinkIds of up to 36 letters, digits, - and _, unique among all orders', () => {
    const { pattern, field, uniqueAmong } = bybit.clientOrderId;
    expect(field).toBe('orderLinkId');
    expect(uniqueAmong).toBe('all');
    expect(pattern.test('grid-42_BTCUSDT-b-0007')).toBe(true);
    expect(pattern.test(`${'A'.repeat(18)}${'9'.repeat(18)}`)).toBe(true);
    for (const bad of ['a.b', 'a:b', 'a/b', 'a b', 'x'.repeat(37)])
      expect(pattern.test(bad), bad).toBe(false);
  });

  it('has no passphrase and checks a key with /v5/user/query-api', () => {
    expect(bybit.keys.passphrase).toBe(false);
    expect(bybit.keys.check).toEqual({ method: 'GET', path: '/v5/user/query-api' });
    expect(bybit.keys.keyPattern.test('AbCdEfGhIjKlMnOpQr')).toBe(true);
    expect(bybit.keys.secretPattern.test('AbCdEfGhIjKlMnOpQrStUvWxYz0123456789')).toBe(true);
  });

  it('lists spot markets from instruments-info, trading when status is Trading', () => {
    expect(bybit.markets).toMatchObject({
      list: { method: 'GET', path: '/v5/market/instruments-info' },
      statusField: 'status',
      tradingStatus: 'Trading',
    });
  });

  it('allows 500 stream connections per 5 minutes per IP', () => {
    expect(bybit.userStream).toMatchObject({ connectionsPerWindow: 500, connectionWindowMs: 5 * 60_000 });
  });

  it('names every unverified field on the page', () => {
    const page = readFileSync(resolve(import.meta.dirname, '../../../docs/venues/bybit.md'), 'utf8');
    const section = page.slice(page.indexOf('## What we could not verify'));
    expect(bybit.unverified?.length).toBeGreaterThan(0);
    for (const path of bybit.unverified ?? []) expect(section, path).toContain(`\`${path}\``);
  });
});
