import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxExchangeHandle, startSandboxExchange } from '../src/index';
import { type BinanceJson, type Credentials, publicGet, signed } from './support/binance-http';

let sandbox: SandboxExchangeHandle;
let trader: Credentials;

beforeAll(async () => {
  sandbox = await startSandboxExchange({ port: 0 });
  trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
});
afterAll(async () => sandbox.close());

describe('signed endpoints: key, signature and timestamp (Binance codes and statuses)', () => {
  it('answers a correctly signed request', async () => {
    const { status, body } = await signed(sandbox.url, 'GET', '/api/v3/account', trader);
    expect(status).toBe(200);
    expect(body.balances).toContainEqual({ asset: 'USDT', free: '1000.00000000', locked: '0.00000000' });
    expect(body.canTrade).toBe(true);
  });

  it.each([
    // Options are built when the test runs: a timestamp taken when the table is collected drifts
    // by however long the earlier tests took.
    ['no API key header', () => ({ noKey: true }), 401, -2014],
    ['a wrong secret', () => ({ signWith: 'not-the-secret' }), 400, -1022],
    ['a timestamp older than recvWindow', () => ({ timestamp: Date.now() - 6000 }), 400, -1021],
    ['a timestamp 2 s ahead of the server', () => ({ timestamp: Date.now() + 2000 }), 400, -1021],
  ] as const)('refuses %s', async (_name, options, status, code) => {
    const response = await signed(sandbox.url, 'GET', '/api/v3/account', trader, {}, options());
    expect(response.status).toBe(status);
    expect(response.body.code).toBe(code);
    expect(typeof response.body.msg).toBe('string');
  });

  it('refuses an unknown key with -2015 (401)', async () => {
    const response = await signed(sandbox.url, 'GET', '/api/v3/account', {
      apiKey: 'A'.repeat(64),
      secret: 'x',
    });
    expect(response).toEqual({
      status: 401,
      body: { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' },
    });
  });

  it('accepts a recvWindow up to 60000 and refuses a larger one', async () => {
    const old = Date.now() - 20_000;
    const ok = await signed(
      sandbox.url,
      'GET',
      '/api/v3/account',
      trader,
      { recvWindow: '30000' },
      { timestamp: old },
    );
    expect(ok.status).toBe(200);
    const tooLarge = await signed(sandbox.url, 'GET', '/api/v3/account', trader, { recvWindow: '70000' });
    expect(tooLarge.body.code).toBe(-1131);
  });

  it('needs timestamp and signature', async () => {
    const response = await fetch(`${sandbox.url}/api/v3/account`, {
      headers: { 'X-MBX-APIKEY': trader.apiKey },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as BinanceJson).code).toBe(-1102);
  });

  it('notices a parameter changed after signing', async () => {
    const body = `symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=20000&timestamp=${Date.now()}`;
    const signature = createHmac('sha256', trader.secret).update(body).digest('hex');
    const post = (b: string) =>
      fetch(`${sandbox.url}/api/v3/order`, {
        method: 'POST',
        headers: { 'X-MBX-APIKEY': trader.apiKey, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `${b}&signature=${signature}`,
      });
    const tampered = await post(body.replace('BUY', 'SELL'));
    expect(tampered.status).toBe(400);
    expect(((await tampered.json()) as BinanceJson).code).toBe(-1022);
    const genuine = await post(body);
    expect(genuine.status).toBe(200);
    expect(((await genuine.json()) as BinanceJson).status).toBe('NEW');
  });

  it('takes a POST whose parameters are all in the query string', async () => {
    const query = `symbol=BTCUSDT&side=BUY&type=MARKET&quoteOrderQty=10&timestamp=${Date.now()}`;
    const signature = createHmac('sha256', trader.secret).update(query).digest('hex');
    const response = await fetch(`${sandbox.url}/api/v3/order?${query}&signature=${signature}`, {
      method: 'POST',
      headers: { 'X-MBX-APIKEY': trader.apiKey },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as BinanceJson).status).toBe('FILLED');
  });

  // Binance signs query string + body concatenated with no separator, so moving the split point
  // keeps the signature valid while changing what the parameters say (quantity 0.001 → 0.00).
  it.each([
    ['a whole parameter moved into the body', 'timeInForce=GTC'],
    ['a value split in two', 'quantity=0.00'],
    ['everything but the signature in the body', ''],
  ] as const)(
    'refuses parameters in both the query string and the body: %s',
    async (_name, queryEndsWith) => {
      const text = `symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=20000&timestamp=${Date.now()}`;
      const signature = createHmac('sha256', trader.secret).update(text).digest('hex');
      const at = queryEndsWith === '' ? 0 : text.indexOf(queryEndsWith) + queryEndsWith.length;
      const [inQuery, inBody] =
        at === 0
          ? [`signature=${signature}`, text]
          : [text.slice(0, at), `${text.slice(at)}&signature=${signature}`];
      const ordersBefore = sandbox.control.orders(trader.apiKey).length;
      const response = await fetch(`${sandbox.url}/api/v3/order?${inQuery}`, {
        method: 'POST',
        headers: { 'X-MBX-APIKEY': trader.apiKey, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: inBody,
      });
      const body = (await response.json()) as BinanceJson;
      expect(body.code).toBe(-1101);
      expect(body.msg).toMatch(/both the query string and the request body/);
      expect(response.status).toBe(400);
      expect(sandbox.control.orders(trader.apiKey)).toHaveLength(ordersBefore);
    },
  );

  it('refuses a parameter sent twice (-1101)', async () => {
    const response = await signed(sandbox.url, 'GET', '/api/v3/account', trader, {}, {});
    expect(response.status).toBe(200);
    const query = `timestamp=${Date.now()}&timestamp=${Date.now() + 1}`;
    const signature = createHmac('sha256', trader.secret).update(query).digest('hex');
    const twice = await fetch(`${sandbox.url}/api/v3/account?${query}&signature=${signature}`, {
      headers: { 'X-MBX-APIKEY': trader.apiKey },
    });
    expect(twice.status).toBe(400);
    expect(await twice.json()).toEqual({ code: -1101, msg: 'Duplicate values for a parameter detected.' });
  });
});

describe('per-key permissions', () => {
  it('reports them at /sapi/v1/account/apiRestrictions', async () => {
    const withdrawer = sandbox.control.createAccount({ permissions: { withdrawals: true } });
    const { body } = await signed(sandbox.url, 'GET', '/sapi/v1/account/apiRestrictions', withdrawer);
    expect(body).toMatchObject({
      enableReading: true,
      enableSpotAndMarginTrading: true,
      enableWithdrawals: true,
    });
    const plain = await signed(sandbox.url, 'GET', '/sapi/v1/account/apiRestrictions', trader);
    expect(plain.body).toMatchObject({ enableSpotAndMarginTrading: true, enableWithdrawals: false });
  });

  it('lets a key without spot trading read but not trade (-2015)', async () => {
    const reader = sandbox.control.addApiKey(trader.apiKey, { spot: false });
    const ordersBefore = sandbox.control.orders(trader.apiKey).length;
    const account = await signed(sandbox.url, 'GET', '/api/v3/account', reader);
    expect(account.status).toBe(200);
    expect(account.body.canTrade).toBe(false);
    const order = await signed(sandbox.url, 'POST', '/api/v3/order', reader, {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quoteOrderQty: '10',
    });
    expect(order).toEqual({
      status: 401,
      body: { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' },
    });
    expect(sandbox.control.orders(trader.apiKey)).toHaveLength(ordersBefore);
  });

  it('applies permission changes from the control API at once', async () => {
    const key = sandbox.control.createAccount({ balances: { USDT: '100' } });
    sandbox.control.setPermissions(key.apiKey, { spot: false, withdrawals: true });
    const { body } = await signed(sandbox.url, 'GET', '/sapi/v1/account/apiRestrictions', key);
    expect(body).toMatchObject({ enableSpotAndMarginTrading: false, enableWithdrawals: true });
  });
});

describe('IP whitelist and the 30-day trading term (Binance API key permission rules)', () => {
  const rejected = {
    status: 401,
    body: { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' },
  };

  it('reports an unrestricted key with its trading term, a restricted one without', async () => {
    const before = Date.now();
    const open = sandbox.control.createAccount({ balances: { USDT: '10' } });
    const { body } = await signed(sandbox.url, 'GET', '/sapi/v1/account/apiRestrictions', open);
    expect(body.ipRestrict).toBe(false);
    expect(body.tradingAuthorityExpirationTime).toBeGreaterThanOrEqual(before + 30 * 86_400_000);
    const restricted = sandbox.control.createAccount({ ipWhitelist: ['127.0.0.1'] });
    const view = await signed(sandbox.url, 'GET', '/sapi/v1/account/apiRestrictions', restricted);
    expect(view.body.ipRestrict).toBe(true);
    expect(view.body).not.toHaveProperty('tradingAuthorityExpirationTime');
  });

  it('refuses every signed call of a key from an IP not on its list with -2015, and names an unknown key on /sapi', async () => {
    const key = sandbox.control.createAccount({ balances: { USDT: '10' }, ipWhitelist: ['203.0.113.7'] });
    expect(await signed(sandbox.url, 'GET', '/api/v3/account', key)).toEqual(rejected);
    expect(await signed(sandbox.url, 'GET', '/sapi/v1/account/apiRestrictions', key)).toEqual(rejected);
    sandbox.control.setKeyAccess(key.apiKey, { ipWhitelist: ['203.0.113.7', '127.0.0.1'] });
    expect((await signed(sandbox.url, 'GET', '/api/v3/account', key)).status).toBe(200);
    const unknown = await signed(sandbox.url, 'GET', '/sapi/v1/account/apiRestrictions', {
      apiKey: 'B'.repeat(64),
      secret: 'x',
    });
    expect(unknown).toEqual({ status: 401, body: { code: -2008, msg: 'Invalid Api-Key ID.' } });
  });

  it('stops trading when the term ends: the permission reads off and orders get -2015', async () => {
    const key = sandbox.control.createAccount({ balances: { USDT: '100' } });
    const ended = Date.now() - 1000;
    sandbox.control.setKeyAccess(key.apiKey, { tradingExpiresAt: ended });
    const { body } = await signed(sandbox.url, 'GET', '/sapi/v1/account/apiRestrictions', key);
    expect(body).toMatchObject({ enableSpotAndMarginTrading: false, tradingAuthorityExpirationTime: ended });
    expect((await signed(sandbox.url, 'GET', '/api/v3/account', key)).body.canTrade).toBe(false);
    const order = await signed(sandbox.url, 'POST', '/api/v3/order', key, {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quoteOrderQty: '10',
    });
    expect(order).toEqual(rejected);
    expect(sandbox.control.orders(key.apiKey)).toHaveLength(0);
  });
});

describe('public endpoints', () => {
  it('serve ping, time and exchangeInfo with Binance filters', async () => {
    expect((await publicGet(sandbox.url, '/api/v3/ping')).body).toEqual({});
    const time = await publicGet(sandbox.url, '/api/v3/time');
    expect(Math.abs(time.body.serverTime - Date.now())).toBeLessThan(5000);
    const info = await publicGet(sandbox.url, '/api/v3/exchangeInfo', { symbol: 'BTCUSDT' });
    const [symbol] = info.body.symbols;
    expect(symbol).toMatchObject({
      symbol: 'BTCUSDT',
      status: 'TRADING',
      baseAsset: 'BTC',
      quoteAsset: 'USDT',
    });
    expect(symbol.permissionSets).toEqual([['SPOT']]);
    const filters = Object.fromEntries(symbol.filters.map((f: { filterType: string }) => [f.filterType, f]));
    expect(filters.PRICE_FILTER.tickSize).toBe('0.01000000');
    expect(filters.LOT_SIZE).toMatchObject({ stepSize: '0.00001000', minQty: '0.00001000' });
    expect(filters.NOTIONAL.minNotional).toBe('5.00000000');
  });

  it('answers an unknown symbol with -1121', async () => {
    const response = await publicGet(sandbox.url, '/api/v3/ticker/price', { symbol: 'NOPEUSDT' });
    expect(response).toEqual({ status: 400, body: { code: -1121, msg: 'Invalid symbol.' } });
  });

  it('serves tickers and klines that follow the price', async () => {
    sandbox.control.setPrice('ETHUSDT', '3100.5');
    const price = await publicGet(sandbox.url, '/api/v3/ticker/price', { symbol: 'ETHUSDT' });
    expect(price.body).toEqual({ symbol: 'ETHUSDT', price: '3100.50000000' });
    const all = await publicGet(sandbox.url, '/api/v3/ticker/24hr', { symbols: '["ETHUSDT","XRPUSDT"]' });
    expect(all.body.map((t: { symbol: string }) => t.symbol)).toEqual(['ETHUSDT', 'XRPUSDT']);
    const book = await publicGet(sandbox.url, '/api/v3/ticker/bookTicker', { symbol: 'ETHUSDT' });
    expect(book.body).toMatchObject({ bidPrice: '3100.50000000', askPrice: '3100.50000000' });
    const klines = await publicGet(sandbox.url, '/api/v3/klines', { symbol: 'ETHUSDT', interval: '1m' });
    expect(klines.body.at(-1)[4]).toBe('3100.50000000');
    const bad = await publicGet(sandbox.url, '/api/v3/klines', { symbol: 'ETHUSDT', interval: '7m' });
    expect(bad.body.code).toBe(-1120);
  });
});

describe('control API', () => {
  it('creates an account over HTTP and refuses clients off the loopback interface', async () => {
    const created = await fetch(`${sandbox.url}/_sandbox/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ balances: { USDT: '250' }, permissions: { spot: true, withdrawals: false } }),
    });
    const { apiKey, secret } = (await created.json()) as Credentials;
    const account = await signed(sandbox.url, 'GET', '/api/v3/account', { apiKey, secret });
    expect(account.body.balances).toContainEqual({
      asset: 'USDT',
      free: '250.00000000',
      locked: '0.00000000',
    });

    const { buildSandboxExchangeApp } = await import('../src/index');
    const app = buildSandboxExchangeApp(sandbox.exchange, sandbox.control);
    const remote = await app.inject({ method: 'GET', url: '/_sandbox/markets', remoteAddress: '10.1.2.3' });
    expect(remote.statusCode).toBe(403);
    const local = await app.inject({ method: 'GET', url: '/_sandbox/markets', remoteAddress: '127.0.0.1' });
    expect(local.statusCode).toBe(200);
    await app.close();
  });

  it('validates control input', async () => {
    const response = await fetch(`${sandbox.url}/_sandbox/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ balances: { USDT: '-5' } }),
    });
    expect(response.status).toBe(400);
  });
});
