import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientOrderIdFor, createExchangeClient, type ExchangeClient, ExchangeError } from '../src/index';
import { type SandboxProcess, startSandboxProcess } from './support/sandbox-process';

/**
 * The grid's life through the adapter, the same on every venue (docs/venues/README.md): one suite,
 * each venue's dialect of the sandbox over HTTP, ccxt's own class for the venue. What differs between
 * venues lives in their tables and in the adapter, never in these expectations.
 */
let sandbox: SandboxProcess;

beforeAll(async () => {
  sandbox = await startSandboxProcess();
  for (const symbol of ['BTCUSDT', 'ETHUSDT']) await sandbox.setLiquidity(symbol, 'infinite');
});
afterAll(async () => sandbox?.stop());

/**
 * `minOrderValue`: the market's minimum order value as the venue lists it — OKX lists a minimum
 * size (`minSz`) only and refuses a too small order at placement (docs/venues/okx.md#filters).
 */
const VENUES = [
  { venue: 'binance', url: () => sandbox.url, minOrderValue: '5' },
  { venue: 'bybit', url: () => sandbox.bybitUrl, minOrderValue: '5' },
  { venue: 'okx', url: () => sandbox.okxUrl, minOrderValue: undefined },
] as const;

const codeOf = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    expect(error).toBeInstanceOf(ExchangeError);
    return (error as ExchangeError).code;
  }
};

/** Our own client order ids (the venues' strictest rule: ≤ 32 letters and digits). */
const idFor = (side: 'buy' | 'sell', lotSeq: number) =>
  clientOrderIdFor({ coinBotId: randomUUID(), lotSeq, side, attempt: 0 });

describe.each(VENUES)('$venue', ({ venue, url, minOrderValue }) => {
  const clientFor = (keys: { apiKey: string; secret: string; passphrase?: string }): ExchangeClient =>
    createExchangeClient({
      exchange: venue,
      mode: 'sandbox',
      sandboxUrl: url(),
      apiKey: keys.apiKey,
      secret: keys.secret,
      ...(keys.passphrase ? { password: keys.passphrase } : {}),
      timeoutMs: 3000,
    });

  it('loads spot markets with tick, step and minimum order value as decimals, and its status', async () => {
    const client = clientFor(await sandbox.createAccount());
    const markets = await client.loadMarkets();
    expect(markets.map((m) => m.symbol)).toEqual(expect.arrayContaining(['BTC/USDT', 'ETH/USDT']));
    const btc = client.market('BTC/USDT');
    expect({
      tick: btc.tickSize.toFixed(),
      step: btc.stepSize.toFixed(),
      minNotional: btc.minNotional?.toFixed(),
      active: btc.active,
    }).toEqual({ tick: '0.01', step: '0.00001', minNotional: minOrderValue, active: true });
    expect(btc.status).not.toBeNull();
    expect(client.priceToPrecision('BTC/USDT', '60000.126')).toBe('60000.13');
    expect(client.amountToPrecision('BTC/USDT', '0.123456789')).toBe('0.12345');
    expect(() => client.market('DOGE/USDT')).toThrowError(
      expect.objectContaining({ code: 'COIN_NOT_LISTED' }),
    );
  });

  it('reads the balance and the ticker as decimals', async () => {
    const client = clientFor(await sandbox.createAccount({ balances: { USDT: '1234.5' } }));
    await sandbox.setPrice('ETHUSDT', '3012.5');
    expect((await client.fetchTicker('ETH/USDT')).last.toFixed()).toBe('3012.5');
    const balance = await client.fetchBalance();
    expect(balance.USDT?.free.toFixed()).toBe('1234.5');
  });

  it('reads the range a market traded in since a moment (the price scan), every extreme inside it', async () => {
    const client = clientFor(await sandbox.createAccount());
    const since = Date.now() - 1000;
    for (const price of ['3000', '3150', '2900', '3010']) await sandbox.setPrice('ETHUSDT', price);
    const range = await client.fetchTradedRange('ETH/USDT', since);
    expect(range?.source).toBe('klines');
    expect(range?.low.lte(2900)).toBe(true);
    expect(range?.high.gte(3150)).toBe(true);
  });

  it("checks the key: spot without withdrawals is usable, the account's uid is read", async () => {
    const keys = await sandbox.createAccount();
    const client = clientFor(keys);
    expect(await client.assertUsableKey()).toMatchObject({
      spot: true,
      withdrawals: false,
      ipRestricted: false,
    });
    const uid = await client.fetchAccountUid();
    expect(uid).toMatch(/^\d+$/);
    expect(await clientFor(await sandbox.createAccount()).fetchAccountUid()).not.toBe(uid);
  });

  it('refuses a key that can withdraw, one without spot trading, one bound to other IPs, and a wrong secret', async () => {
    const withdraws = await sandbox.createAccount({ permissions: { spot: true, withdrawals: true } });
    expect(await codeOf(clientFor(withdraws).assertUsableKey())).toBe('API_KEY_WITHDRAW_ENABLED');
    const readOnly = await sandbox.createAccount({ permissions: { spot: false } });
    expect(await codeOf(clientFor(readOnly).assertUsableKey())).toBe('API_KEY_NO_SPOT');
    const elsewhere = await sandbox.createAccount({ ipWhitelist: ['203.0.113.7'] });
    expect(await codeOf(clientFor(elsewhere).assertUsableKey())).toBe('API_KEY_IP_NOT_ALLOWED');
    const keys = await sandbox.createAccount();
    expect(await codeOf(clientFor({ ...keys, secret: 'wrongsecret0123' }).assertUsableKey())).toBe(
      'API_KEY_INVALID',
    );
  });

  it("gives the account's TRC20 USDT deposit address, the same on every venue's dialect (withdraw_exchange)", async () => {
    const keys = await sandbox.createAccount();
    const address = await clientFor(keys).fetchDepositAddress('USDT', 'TRC20');
    expect(address.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(address.tag).toBeNull();
    const onBinance = await createExchangeClient({
      exchange: 'binance',
      mode: 'sandbox',
      sandboxUrl: sandbox.url,
      ...keys,
    }).fetchDepositAddress('USDT', 'TRC20');
    expect(onBinance.address).toBe(address.address);
  });

  it('rests a limit buy, finds it by client id, fills it, sells it, and lists both fills with fees', async () => {
    const keys = await sandbox.createAccount({ balances: { USDT: '500' } });
    const client = clientFor(keys);
    await sandbox.setPrice('ETHUSDT', '3000');
    const since = Date.now() - 1000;
    const buyId = idFor('buy', 1);
    const buy = await client.placeOrder({
      symbol: 'ETH/USDT',
      side: 'buy',
      type: 'limit',
      price: '2970',
      amount: '0.05',
      clientOrderId: buyId,
    });
    expect(buy).toMatchObject({ existing: false, order: { status: 'open', clientOrderId: buyId } });
    expect(buy.order.price?.toFixed()).toBe('2970');
    expect((await client.fetchOpenOrders('ETH/USDT')).map((o) => o.clientOrderId)).toEqual([buyId]);
    expect((await client.fetchBalance()).USDT?.free.toFixed()).toBe('351.5');

    await sandbox.setPrice('ETHUSDT', '2960');
    const filled = await client.fetchOrderByClientId('ETH/USDT', buyId);
    expect(filled).toMatchObject({ id: buy.order.id, status: 'closed', clientOrderId: buyId });
    expect(filled?.filled.toFixed()).toBe('0.05');

    const sellId = idFor('sell', 1);
    await client.placeOrder({
      symbol: 'ETH/USDT',
      side: 'sell',
      type: 'limit',
      price: '2999.7',
      amount: '0.0499',
      clientOrderId: sellId,
    });
    await sandbox.setPrice('ETHUSDT', '3001');
    const trades = await client.fetchMyTrades('ETH/USDT', since);
    expect(trades.map((t) => [t.side, t.price.toFixed(), t.amount.toFixed()])).toEqual([
      ['buy', '2970', '0.05'],
      ['sell', '2999.7', '0.0499'],
    ]);
    // The 0.1 % fee of the sale, in USDT: 0.0499 × 2999.7 × 0.001.
    expect(trades[1]?.feeQuote?.toFixed()).toBe('0.14968503');
    const ofBuy = await client.fetchOrderTrades('ETH/USDT', buy.order.id);
    expect(ofBuy.map((t) => t.amount.toFixed())).toEqual(['0.05']);
  });

  it('buys at market for a quote amount', async () => {
    const client = clientFor(await sandbox.createAccount({ balances: { USDT: '500' } }));
    await sandbox.setPrice('BTCUSDT', '50000');
    const id = idFor('buy', 2);
    const { order } = await client.placeOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      quoteAmount: '100',
      clientOrderId: id,
    });
    expect(order).toMatchObject({ clientOrderId: id, status: 'closed', side: 'buy' });
    expect(order.filled.toFixed()).toBe('0.002');
  });

  it('cancels a resting order by client id; a second cancel and an unknown order are told apart', async () => {
    const client = clientFor(await sandbox.createAccount({ balances: { USDT: '500' } }));
    await sandbox.setPrice('ETHUSDT', '3000');
    const id = idFor('buy', 3);
    await client.placeOrder({
      symbol: 'ETH/USDT',
      side: 'buy',
      type: 'limit',
      price: '2900',
      amount: '0.01',
      clientOrderId: id,
    });
    const cancelled = await client.cancelOrder('ETH/USDT', { clientOrderId: id });
    expect(cancelled === null || cancelled.clientOrderId === id).toBe(true);
    expect(await client.fetchOpenOrders('ETH/USDT')).toEqual([]);
    expect((await client.fetchOrderByClientId('ETH/USDT', id))?.status).toBe('canceled');
    expect(await client.fetchOrderByClientId('ETH/USDT', idFor('buy', 4))).toBeNull();
    expect((await client.fetchBalance()).USDT?.free.toFixed()).toBe('500');
  });

  it.each([
    ['below the minimum order value', { price: '60000', amount: '0.00005' }, 'ORDER_BELOW_EXCHANGE_MIN'],
    ['above the balance', { price: '60000', amount: '1' }, 'EXCHANGE_INSUFFICIENT_BALANCE'],
  ])('refuses an order %s with its code, the exchange code kept', async (_name, sizing, code) => {
    const client = clientFor(await sandbox.createAccount({ balances: { USDT: '100' } }));
    const error = await client
      .placeOrder({
        symbol: 'BTC/USDT',
        side: 'buy',
        type: 'limit',
        clientOrderId: idFor('buy', 5),
        ...sizing,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeError);
    expect((error as ExchangeError).code).toBe(code);
    expect((error as ExchangeError).options.exchangeCode).toMatch(/^-?\d+$/);
  });
});
