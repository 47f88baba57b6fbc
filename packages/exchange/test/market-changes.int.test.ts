import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createExchangeClient, type ExchangeClient, ExchangeError } from '../src/index';
import { type SandboxProcess, startSandboxProcess } from './support/sandbox-process';

let sandbox: SandboxProcess;
let venue = 0;

/**
 * A client on a venue no other client of this process has loaded yet (same host, another
 * spelling of its URL): markets are shared per venue and process, and each test changes them.
 */
const freshClient = (keys: { apiKey: string; secret: string }, options: { marketsTtlMs?: number } = {}) => {
  venue += 1;
  return createExchangeClient({
    exchange: 'binance',
    mode: 'sandbox',
    sandboxUrl: `${sandbox.url}${'/'.repeat(venue)}`,
    ...keys,
    timeoutMs: 2000,
    ...options,
  });
};

const refusal = async (promise: Promise<unknown>): Promise<ExchangeError> => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ExchangeError);
    return error as ExchangeError;
  }
  throw new Error('expected a refusal');
};

const limitBuy = (client: ExchangeClient, symbol: string, price: string, amount: string, id: string) =>
  client.placeOrder({ symbol, side: 'buy', type: 'limit', price, amount, clientOrderId: id });

beforeAll(async () => {
  sandbox = await startSandboxProcess();
});
afterAll(async () => sandbox?.stop());
afterEach(async () => {
  await sandbox.control('PUT', '/clock', { offsetMs: 0 });
});

describe('a clock that steps after the start', () => {
  it('every signed call answered -1021 re-measures the offset and is sent once more', async () => {
    const keys = await sandbox.createAccount({ balances: { USDT: '1000' } });
    const client = freshClient(keys);
    await client.loadMarkets();
    const placed = await limitBuy(client, 'BTC/USDT', '50000', '0.001', 'clock-1');
    for (const offsetMs of [-10_000, 10_000, -30_000]) {
      // The exchange's clock is now `offsetMs` away from the offset measured at start.
      await sandbox.control('PUT', '/clock', { offsetMs });
      expect((await client.fetchOpenOrders('BTC/USDT')).map((o) => o.id)).toEqual([placed.order.id]);
      await sandbox.control('PUT', '/clock', { offsetMs: offsetMs * 2 });
      expect((await client.fetchOrderByClientId('BTC/USDT', 'clock-1'))?.status).toBe('open');
      await sandbox.control('PUT', '/clock', { offsetMs: -offsetMs });
      expect((await client.fetchBalance()).USDT?.used.toFixed()).toBe('50');
      await sandbox.control('PUT', '/clock', { offsetMs });
      expect(await client.fetchMyTrades('BTC/USDT')).toEqual([]);
    }
    await sandbox.control('PUT', '/clock', { offsetMs: 20_000 });
    expect((await client.cancelOrder('BTC/USDT', { clientOrderId: 'clock-1' }))?.status).toBe('canceled');
  });
});

describe('markets that change while the client runs', () => {
  it('a new tick is seen once the markets are older than the TTL', async () => {
    const client = freshClient(await sandbox.createAccount(), { marketsTtlMs: 300 });
    await client.loadMarkets();
    expect(client.market('ETH/USDT').tickSize.toFixed()).toBe('0.01');
    await sandbox.control('PUT', '/markets/ETHUSDT/filters', { tickSize: '0.1', stepSize: '0.001' });
    await new Promise((resolve) => setTimeout(resolve, 350));
    await client.loadMarkets();
    expect(client.market('ETH/USDT').tickSize.toFixed()).toBe('0.1');
    expect(client.market('ETH/USDT').stepSize.toFixed()).toBe('0.001');
    await sandbox.control('PUT', '/markets/ETHUSDT/filters', { tickSize: '0.01', stepSize: '0.0001' });
  });

  it('a filter refusal (-1013) fetches the markets at once: the next order goes out on the new tick', async () => {
    const keys = await sandbox.createAccount({ balances: { USDT: '1000' } });
    const client = freshClient(keys);
    const other = createExchangeClient({
      exchange: 'binance',
      mode: 'sandbox',
      sandboxUrl: `${sandbox.url}${'/'.repeat(venue)}`,
      ...(await sandbox.createAccount()),
    });
    await Promise.all([client.loadMarkets(), other.loadMarkets()]);
    await sandbox.control('PUT', '/markets/BTCUSDT/filters', { tickSize: '0.5' });
    const price = client.priceToPrecision('BTC/USDT', '50000.03');
    expect(price).toBe('50000.03');
    const refused = await refusal(limitBuy(client, 'BTC/USDT', price, '0.001', 'tick-1'));
    expect(refused.options).toMatchObject({
      exchangeCode: '-1013',
      exchangeMessage: 'Filter failure: PRICE_FILTER',
    });
    expect(client.priceToPrecision('BTC/USDT', '50000.03')).toBe('50000');
    await limitBuy(client, 'BTC/USDT', client.priceToPrecision('BTC/USDT', '50000.03'), '0.001', 'tick-2');
    // Another key's client of the same venue takes the refreshed markets at its next call.
    await other.fetchTicker('BTC/USDT');
    expect(other.market('BTC/USDT').tickSize.toFixed()).toBe('0.5');
    await sandbox.control('PUT', '/markets/BTCUSDT/filters', { tickSize: '0.01' });
  });

  it('a symbol in BREAK: the order is refused "Market is closed." and the market reads inactive with its status', async () => {
    const client = freshClient(await sandbox.createAccount({ balances: { USDT: '1000' } }));
    await client.loadMarkets();
    expect(client.market('ETH/USDT')).toMatchObject({ active: true, status: 'TRADING' });
    await sandbox.control('PUT', '/markets/ETHUSDT/status', { status: 'BREAK' });
    const refused = await refusal(limitBuy(client, 'ETH/USDT', '2000', '0.01', 'break-1'));
    expect(refused.code).toBe('ORDER_REJECTED');
    expect(refused.options.exchangeMessage).toBe('Market is closed.');
    expect(client.market('ETH/USDT')).toMatchObject({ active: false, status: 'BREAK' });
    await sandbox.control('PUT', '/markets/ETHUSDT/status', { status: 'TRADING' });
    await client.loadMarkets(true);
    expect(client.market('ETH/USDT')).toMatchObject({ active: true, status: 'TRADING' });
  });
});

// Last: the delisting stays for the rest of this file's sandbox.
describe('a delisted symbol', () => {
  it('-1121 on any call is COIN_NOT_LISTED and the market is gone from the client', async () => {
    const client = freshClient(await sandbox.createAccount());
    await client.loadMarkets();
    await sandbox.control('DELETE', '/markets/XRPUSDT');
    expect((await refusal(client.fetchOpenOrders('XRP/USDT'))).code).toBe('COIN_NOT_LISTED');
    expect(() => client.market('XRP/USDT')).toThrow(/no spot market/);
  });
});
