import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExchangeClient, type ExchangeClient, ExchangeError } from '../src/index';
import { type SandboxProcess, startSandboxProcess } from './support/sandbox-process';

let sandbox: SandboxProcess;

const clientFor = (keys: { apiKey: string; secret: string }, url = sandbox.url): ExchangeClient =>
  createExchangeClient({ exchange: 'binance', mode: 'sandbox', sandboxUrl: url, ...keys, timeoutMs: 2000 });

const codeOf = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    expect(error).toBeInstanceOf(ExchangeError);
    return (error as ExchangeError).code;
  }
};

beforeAll(async () => {
  sandbox = await startSandboxProcess();
  // These tests check one order's fill and fee as a single trade: books deep enough to fill whole.
  for (const symbol of ['BTCUSDT', 'ETHUSDT', 'XRPUSDT']) await sandbox.setLiquidity(symbol, 'infinite');
});
afterAll(async () => sandbox?.stop());

describe('markets', () => {
  it("shares a venue's markets between the keys of a process: one exchangeInfo for five clients, a reload fetches", async () => {
    const usedWeight = async () =>
      Number((await fetch(`${sandbox.url}/api/v3/ping`)).headers.get('x-mbx-used-weight-1m'));
    const keys = await Promise.all(Array.from({ length: 5 }, () => sandbox.createAccount()));
    // The sandbox counts weight per minute: a window that turned over meanwhile is measured again,
    // each time as a venue no client of this process has loaded yet (same host, another spelling).
    for (let attempt = 1; ; attempt++) {
      const url = `${sandbox.url}${'/'.repeat(attempt)}`;
      const before = await usedWeight();
      const clients = keys.map((k) => clientFor(k, url));
      const [first, ...others] = clients as [ExchangeClient, ...ExchangeClient[]];
      await Promise.all([first.loadMarkets(), others[0]?.loadMarkets()]);
      for (const client of others.slice(1)) await client.loadMarkets();
      const loaded = (await usedWeight()) - before;
      await others[3]?.loadMarkets(true);
      const reloaded = (await usedWeight()) - before - loaded;
      if ((loaded < 0 || reloaded < 0) && attempt < 3) continue;
      for (const client of clients) expect(client.market('XRP/USDT').symbol).toBe('XRP/USDT');
      // exchangeInfo weighs 20; the ping 1, the server time (clock offset) 1. Unshared: 5 × 21 + 1.
      expect(loaded).toBeLessThan(40);
      expect(reloaded).toBeGreaterThanOrEqual(20);
      break;
    }
  });

  it('loads spot markets with tick, step, minQty and minNotional as decimals', async () => {
    const client = clientFor(await sandbox.createAccount());
    const markets = await client.loadMarkets();
    expect(markets.map((m) => m.symbol)).toEqual(['BTC/USDT', 'ETH/USDT', 'XRP/USDT']);
    const btc = client.market('BTC/USDT');
    expect({
      id: btc.id,
      tick: btc.tickSize.toFixed(),
      step: btc.stepSize.toFixed(),
      minQty: btc.minQty?.toFixed(),
      minNotional: btc.minNotional?.toFixed(),
    }).toEqual({ id: 'BTCUSDT', tick: '0.01', step: '0.00001', minQty: '0.00001', minNotional: '5' });
    // MAX_NUM_ORDERS and PERCENT_PRICE_BY_SIDE as Binance lists them for a major (filters.md).
    const band = btc.percentPriceBySide;
    expect({
      maxNumOrders: btc.maxNumOrders,
      band: [
        band?.bidMultiplierUp,
        band?.bidMultiplierDown,
        band?.askMultiplierUp,
        band?.askMultiplierDown,
      ].map((m) => m?.toFixed()),
      avgPriceMins: band?.avgPriceMins,
    }).toEqual({ maxNumOrders: 200, band: ['5', '0.2', '5', '0.2'], avgPriceMins: 5 });
    expect(client.priceToPrecision('BTC/USDT', '60000.126')).toBe('60000.13');
    expect(client.amountToPrecision('BTC/USDT', '0.123456789')).toBe('0.12345');
    expect(client.minimumViolation('BTC/USDT', '60000', '0.00005')).toBe('MIN_NOTIONAL');
    expect(() => client.market('DOGE/USDT')).toThrowError(
      expect.objectContaining({ code: 'COIN_NOT_LISTED' }),
    );
  });

  it('reads tickers and balances as decimals', async () => {
    const client = clientFor(await sandbox.createAccount({ balances: { USDT: '1234.5', BTC: '0' } }));
    await sandbox.setPrice('XRPUSDT', '0.6123');
    const ticker = await client.fetchTicker('XRP/USDT');
    expect(ticker.last.toFixed()).toBe('0.6123');
    const tickers = await client.fetchTickers(['XRP/USDT', 'BTC/USDT']);
    expect(Object.keys(tickers).sort()).toEqual(['BTC/USDT', 'XRP/USDT']);
    const balance = await client.fetchBalance();
    expect(Object.keys(balance)).toEqual(['USDT']);
    expect(balance.USDT!.free.toFixed()).toBe('1234.5');
  });
});

describe('key permissions', () => {
  it('accepts a spot key without withdrawals, and reports its IP restriction and trading term', async () => {
    const before = Date.now();
    const client = clientFor(await sandbox.createAccount());
    const open = await client.checkPermissions();
    expect(open).toMatchObject({ spot: true, withdrawals: false, ipRestricted: false });
    // Binance's 30 days for a key open to every IP (apiRestrictions' tradingAuthorityExpirationTime).
    expect(open.tradingExpiresAt).toBeGreaterThanOrEqual(before + 30 * 86_400_000);
    expect(await client.assertUsableKey()).toEqual(open);
    const restricted = clientFor(await sandbox.createAccount({ ipWhitelist: ['127.0.0.1'] }));
    expect(await restricted.checkPermissions()).toEqual({
      spot: true,
      withdrawals: false,
      ipRestricted: true,
      tradingExpiresAt: null,
    });
  });

  it('tells a key that refuses this IP (-2015) from an invalid one, when checked and when trading', async () => {
    const keys = await sandbox.createAccount({ balances: { USDT: '100' }, ipWhitelist: ['203.0.113.7'] });
    const client = clientFor(keys);
    expect(await codeOf(client.assertUsableKey())).toBe('API_KEY_IP_NOT_ALLOWED');
    const placing = client.placeOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      quoteAmount: '10',
      clientOrderId: 'foreign-ip',
    });
    const error = await placing.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'API_KEY_IP_NOT_ALLOWED', options: { exchangeCode: '-2015' } });
    expect(await codeOf(client.fetchOpenOrders('BTC/USDT'))).toBe('API_KEY_IP_NOT_ALLOWED');
    expect(await sandbox.orders(keys.apiKey)).toEqual([]);
  });

  it('reports a key whose trading term ended as API_KEY_TRADING_EXPIRED, when checked and when trading', async () => {
    const keys = await sandbox.createAccount({ balances: { USDT: '100' } });
    const client = clientFor(keys);
    const ended = Date.now() - 1000;
    await sandbox.setKeyAccess(keys.apiKey, { tradingExpiresAt: ended });
    expect(await client.checkPermissions()).toMatchObject({ spot: false, tradingExpiresAt: ended });
    expect(await codeOf(client.assertUsableKey())).toBe('API_KEY_TRADING_EXPIRED');
    const placing = client.placeOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      quoteAmount: '10',
      clientOrderId: 'expired',
    });
    expect(await codeOf(placing)).toBe('API_KEY_TRADING_EXPIRED');
  });

  it("reads the exchange account's uid: two keys of one account share it", async () => {
    const keys = await sandbox.createAccount();
    const other = await sandbox.createAccount();
    const uid = await clientFor(keys).fetchAccountUid();
    expect(uid).toMatch(/^\d{9}$/);
    expect(await clientFor(other).fetchAccountUid()).not.toBe(uid);
  });

  it('refuses a key that can withdraw', async () => {
    const client = clientFor(await sandbox.createAccount({ permissions: { spot: true, withdrawals: true } }));
    expect(await codeOf(client.assertUsableKey())).toBe('API_KEY_WITHDRAW_ENABLED');
  });

  it('refuses a key without spot trading, also when it tries to place an order', async () => {
    const keys = await sandbox.createAccount({ balances: { USDT: '100' }, permissions: { spot: false } });
    const client = clientFor(keys);
    expect(await client.checkPermissions()).toMatchObject({ spot: false, withdrawals: false });
    expect(await codeOf(client.assertUsableKey())).toBe('API_KEY_NO_SPOT');
    const placing = client.placeOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      quoteAmount: '10',
      clientOrderId: 'nospot',
    });
    expect(await codeOf(placing)).toBe('API_KEY_NO_SPOT');
    expect(await sandbox.orders(keys.apiKey)).toEqual([]);
  });

  it('reports a wrong secret or an unknown key as API_KEY_INVALID', async () => {
    const keys = await sandbox.createAccount();
    expect(await codeOf(clientFor({ ...keys, secret: 'wrong-secret' }).assertUsableKey())).toBe(
      'API_KEY_INVALID',
    );
    expect(await codeOf(clientFor({ apiKey: 'Unknown1', secret: 'x' }).assertUsableKey())).toBe(
      'API_KEY_INVALID',
    );
  });

  it('reports an exchange that does not answer as EXCHANGE_UNAVAILABLE (retryable)', async () => {
    const client = clientFor(await sandbox.createAccount(), 'http://127.0.0.1:9');
    const error = await client.checkPermissions().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'EXCHANGE_UNAVAILABLE', retryable: true });
  });
});

describe('orders and trades', () => {
  it('buys at market for a quote amount and reports the fee in USDT', async () => {
    const keys = await sandbox.createAccount({ balances: { USDT: '500' } });
    const client = clientFor(keys);
    await sandbox.setPrice('BTCUSDT', '50000');
    const since = Date.now() - 1000;
    const { order, existing } = await client.placeOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      quoteAmount: '100',
      clientOrderId: 'entry-1',
    });
    expect(existing).toBe(false);
    expect(order).toMatchObject({
      clientOrderId: 'entry-1',
      status: 'closed',
      type: 'market',
      side: 'buy',
      price: null,
    });
    expect([order.filled.toFixed(), order.cost.toFixed(), order.average?.toFixed()]).toEqual([
      '0.002',
      '100',
      '50000',
    ]);
    const [trade] = await client.fetchMyTrades('BTC/USDT', since);
    expect(trade).toMatchObject({ orderId: order.id, side: 'buy', takerOrMaker: 'taker' });
    expect([trade!.fee?.currency, trade!.fee?.cost.toFixed(), trade!.feeQuote?.toFixed()]).toEqual([
      'BTC',
      '0.000002',
      '0.1',
    ]);
  });

  it('rests a limit buy (balance locked), fills it when the price crosses, then its take-profit', async () => {
    const keys = await sandbox.createAccount({ balances: { USDT: '500' } });
    const client = clientFor(keys);
    await sandbox.setPrice('ETHUSDT', '3000');
    const since = Date.now() - 1000;
    const buy = await client.placeOrder({
      symbol: 'ETH/USDT',
      side: 'buy',
      type: 'limit',
      price: '2970',
      amount: '0.05',
      clientOrderId: 'lot-1-b',
    });
    expect(buy.order).toMatchObject({ status: 'open', clientOrderId: 'lot-1-b' });
    expect(buy.order.price?.toFixed()).toBe('2970');
    expect((await client.fetchOpenOrders('ETH/USDT')).map((o) => o.clientOrderId)).toEqual(['lot-1-b']);
    expect((await sandbox.balances(keys.apiKey)).USDT).toEqual({
      free: '351.50000000',
      locked: '148.50000000',
    });

    await sandbox.setPrice('ETHUSDT', '2960');
    const filled = await client.fetchOrderByClientId('ETH/USDT', 'lot-1-b');
    expect(filled?.status).toBe('closed');
    const balance = await client.fetchBalance();
    expect(balance.ETH!.free.toFixed()).toBe('0.04995');

    await client.placeOrder({
      symbol: 'ETH/USDT',
      side: 'sell',
      type: 'limit',
      price: '2999.7',
      amount: '0.0499',
      clientOrderId: 'lot-1-s',
    });
    await sandbox.setPrice('ETHUSDT', '3001');
    const trades = await client.fetchMyTrades('ETH/USDT', since);
    expect(trades.map((t) => [t.side, t.price.toFixed(), t.amount.toFixed(), t.takerOrMaker])).toEqual([
      ['buy', '2970', '0.05', 'maker'],
      ['sell', '2999.7', '0.0499', 'maker'],
    ]);
    // 0.0499 × 2999.7 = 149.68503 USDT; the 0.1 % fee is charged in USDT.
    expect(trades[1]!.feeQuote?.toFixed()).toBe('0.14968503');
    expect(trades[0]!.feeQuote?.toFixed()).toBe('0.1485');
  });

  it.each([
    ['under the minimum notional', { price: '60000', amount: '0.00005' }, 'ORDER_BELOW_EXCHANGE_MIN'],
    ['more than the balance', { price: '60000', amount: '1' }, 'EXCHANGE_INSUFFICIENT_BALANCE'],
  ])('refuses an order %s', async (_name, sizing, code) => {
    const client = clientFor(await sandbox.createAccount({ balances: { USDT: '100' } }));
    const placing = client.placeOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'limit',
      clientOrderId: `r-${code}`,
      ...sizing,
    });
    expect(await codeOf(placing)).toBe(code);
  });

  it('refuses an unknown market and a malformed client id before calling the exchange', async () => {
    const client = clientFor(await sandbox.createAccount({ balances: { USDT: '100' } }));
    const unknown = client.placeOrder({
      symbol: 'DOGE/USDT',
      side: 'buy',
      type: 'market',
      quoteAmount: '10',
      clientOrderId: 'x',
    });
    expect(await codeOf(unknown)).toBe('COIN_NOT_LISTED');
    const badId = client.placeOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      quoteAmount: '10',
      clientOrderId: 'a b',
    });
    expect(await codeOf(badId)).toBe('ORDER_REJECTED');
  });
});

describe('trade history', () => {
  it('walks days in 24-hour windows and lists the fills of one order', async () => {
    const client = clientFor(await sandbox.createAccount({ balances: { USDT: '500' } }));
    await sandbox.setPrice('BTCUSDT', '50000');
    const first = await client.placeOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      quoteAmount: '50',
      clientOrderId: 'h-1',
    });
    await client.placeOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      quoteAmount: '50',
      clientOrderId: 'h-2',
    });
    const threeDaysAgo = Date.now() - 3 * 86_400_000;
    expect(await client.fetchMyTrades('BTC/USDT', threeDaysAgo)).toHaveLength(2);
    const fills = await client.fetchOrderTrades('BTC/USDT', first.order.id);
    expect(fills.map((t) => t.orderId)).toEqual([first.order.id]);
  });
});
