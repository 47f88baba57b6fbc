import { setTimeout as sleep } from 'node:timers/promises';
import { Spot as LegacySpot } from '@binance/connector';
import { RateLimitBanError, Spot, SpotRestAPI, TooManyRequestsError } from '@binance/spot';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IN_FLIGHT_MS } from '../src/exchange/rate-limits';
import { type SandboxExchangeHandle, startSandboxExchange } from '../src/index';
import { clearOfWindowEnd } from './support/binance-http';
import { FIXED_BTC_USDT, REPLAYED_ETH_USDT } from './support/markets';

/*
 * Binance's current official connector (@binance/spot, the modular one) against the sandbox over
 * HTTP and WebSocket: another judge of the dialect besides @binance/connector and ccxt. It parses
 * Binance's usage headers into `rateLimits` and maps 429/418 to its own error classes.
 */

let sandbox: SandboxExchangeHandle;
let client: Spot;
let apiKey: string;
let secret: string;

const clientFor = (key: string, keySecret: string) =>
  new Spot({
    configurationRestAPI: {
      apiKey: key,
      apiSecret: keySecret,
      basePath: sandbox.url,
      timeout: 30_000,
      retries: 0,
    },
    configurationWebsocketAPI: {
      apiKey: key,
      apiSecret: keySecret,
      wsURL: `${sandbox.wsUrl}/ws-api/v3`,
      timeout: 30_000,
      reconnectDelay: 60_000,
    },
  });

beforeAll(async () => {
  sandbox = await startSandboxExchange({ port: 0, markets: [FIXED_BTC_USDT, REPLAYED_ETH_USDT], tickMs: 0 });
  ({ apiKey, secret } = sandbox.control.createAccount({ balances: { USDT: '10000' } }));
  client = clientFor(apiKey, secret);
}, 60_000);
afterAll(async () => sandbox?.close());
beforeEach(() => sandbox.control.resetLimits());

const limitBuy = (
  price: string,
  extra: Partial<SpotRestAPI.NewOrderRequest> = {},
): SpotRestAPI.NewOrderRequest => ({
  symbol: 'BTCUSDT',
  side: SpotRestAPI.NewOrderSideEnum.BUY,
  type: SpotRestAPI.NewOrderTypeEnum.LIMIT,
  timeInForce: SpotRestAPI.NewOrderTimeInForceEnum.GTC,
  price: Number(price),
  quantity: 0.001,
  ...extra,
});

describe('@binance/spot REST against the sandbox', () => {
  it('reads market data: time, exchangeInfo with its rate limits, depth, trades, aggTrades, klines, tickers', async () => {
    await clearOfWindowEnd(60_000);
    const time = await client.restAPI.time();
    expect(Math.abs(Number((await time.data()).serverTime) - Date.now())).toBeLessThan(60_000);
    expect(time.rateLimits).toEqual([
      expect.objectContaining({
        rateLimitType: 'REQUEST_WEIGHT',
        interval: 'MINUTE',
        intervalNum: 1,
        count: 1,
      }),
    ]);

    const info = await (await client.restAPI.exchangeInfo({ symbol: 'BTCUSDT' })).data();
    expect(info.rateLimits?.map((l) => l.rateLimitType)).toEqual([
      'REQUEST_WEIGHT',
      'RAW_REQUESTS',
      'ORDERS',
      'ORDERS',
    ]);
    expect(info.symbols?.[0]?.symbol).toBe('BTCUSDT');

    // A resting order of ours shows in the book beside the synthetic levels around the price.
    await client.restAPI.newOrder(limitBuy('59000', { newClientOrderId: 'book-1' }));
    const depth = await client.restAPI.depth({ symbol: 'BTCUSDT', limit: 5 });
    const book = await depth.data();
    // time 1, exchangeInfo 20, a new order 1, depth (limit ≤ 100) 5.
    expect(depth.rateLimits?.[0]?.count).toBe(1 + 20 + 1 + 5);
    expect(book.bids).toHaveLength(5);
    expect(book.asks).toHaveLength(5);
    const bidPrices = book.bids!.map(([p]) => Number(p));
    expect(bidPrices[0]).toBe(60000);
    expect(bidPrices).toEqual([...bidPrices].sort((a, b) => b - a));
    expect(Number(book.asks![0]![0])).toBeGreaterThan(60000);
    const deep = await (await client.restAPI.depth({ symbol: 'BTCUSDT', limit: 500 })).data();
    expect(deep.bids!.find(([p]) => p === '59000.00000000')).toBeDefined();

    await client.restAPI.newOrder({
      symbol: 'BTCUSDT',
      side: SpotRestAPI.NewOrderSideEnum.BUY,
      type: SpotRestAPI.NewOrderTypeEnum.MARKET,
      quoteOrderQty: 60,
    });
    const trades = await (await client.restAPI.getTrades({ symbol: 'BTCUSDT' })).data();
    expect(trades.at(-1)).toMatchObject({ price: '60000.00000000', qty: '0.00100000', isBestMatch: true });
    const agg = await (await client.restAPI.aggTrades({ symbol: 'BTCUSDT', limit: 1 })).data();
    expect(agg).toEqual([
      expect.objectContaining({
        a: trades.at(-1)!.id,
        p: '60000.00000000',
        q: '0.00100000',
        f: trades.at(-1)!.id,
      }),
    ]);
    const historical = await (
      await client.restAPI.historicalTrades({ symbol: 'BTCUSDT', fromId: trades[0]!.id })
    ).data();
    expect(historical.map((t) => t.id)).toEqual(trades.map((t) => t.id));

    const klines = await (
      await client.restAPI.klines({
        symbol: 'ETHUSDT',
        interval: SpotRestAPI.KlinesIntervalEnum.INTERVAL_1m,
        limit: 3,
      })
    ).data();
    expect(klines).toHaveLength(3);
    const ui = await (
      await client.restAPI.uiKlines({
        symbol: 'ETHUSDT',
        interval: SpotRestAPI.UiKlinesIntervalEnum.INTERVAL_1m,
        limit: 3,
      })
    ).data();
    expect(ui).toHaveLength(3);
    const day = (await (await client.restAPI.ticker24hr({ symbol: 'BTCUSDT' })).data()) as {
      lastPrice: string;
    };
    expect(day.lastPrice).toBe('60000.00000000');
    const avg = await (await client.restAPI.avgPrice({ symbol: 'BTCUSDT' })).data();
    expect(avg.price).toBe('60000.00000000');
    await client.restAPI.deleteOpenOrders({ symbol: 'BTCUSDT' });
  });

  it('reads the account, its commission rates and its unfilled order count', async () => {
    const account = await (await client.restAPI.getAccount({ omitZeroBalances: true })).data();
    expect(account.balances?.map((b) => b.asset)).toContain('USDT');
    const commission = await (await client.restAPI.accountCommission({ symbol: 'BTCUSDT' })).data();
    expect(commission).toMatchObject({
      symbol: 'BTCUSDT',
      standardCommission: { maker: '0.00100000', taker: '0.00100000' },
      discount: { discountAsset: 'BNB' },
    });
    const counts = await (await client.restAPI.rateLimitOrder()).data();
    expect(counts).toEqual([
      expect.objectContaining({ rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 100 }),
      expect.objectContaining({ rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: 200000 }),
    ]);
  });

  it('places, queries and cancels an order, and test orders place nothing', async () => {
    const placed = await client.restAPI.newOrder(limitBuy('50000', { newClientOrderId: 'spot-1' }));
    const order = await placed.data();
    expect(order).toMatchObject({ symbol: 'BTCUSDT', status: 'NEW', clientOrderId: 'spot-1' });
    expect(placed.rateLimits?.map((l) => [l.rateLimitType, l.interval])).toEqual(
      expect.arrayContaining([
        ['ORDERS', 'SECOND'],
        ['ORDERS', 'DAY'],
      ]),
    );
    const queried = await (
      await client.restAPI.getOrder({ symbol: 'BTCUSDT', origClientOrderId: 'spot-1' })
    ).data();
    expect(queried).toMatchObject({ orderId: order.orderId, price: '50000.00000000' });
    const cancelled = await (
      await client.restAPI.deleteOrder({ symbol: 'BTCUSDT', orderId: order.orderId })
    ).data();
    expect(cancelled).toMatchObject({ orderId: order.orderId, status: 'CANCELED' });

    const before = sandbox.control.orders(apiKey).length;
    const test = {
      symbol: 'BTCUSDT',
      side: SpotRestAPI.OrderTestSideEnum.BUY,
      type: SpotRestAPI.OrderTestTypeEnum.LIMIT,
      timeInForce: SpotRestAPI.OrderTestTimeInForceEnum.GTC,
      price: 50000,
      quantity: 0.001,
    };
    expect(await (await client.restAPI.orderTest(test)).data()).toEqual({});
    const withRates = await client.restAPI.orderTest({ ...test, computeCommissionRates: true });
    expect(await withRates.data()).toMatchObject({
      standardCommissionForOrder: { maker: '0.00100000', taker: '0.00100000' },
      taxCommissionForOrder: { maker: '0.00000000', taker: '0.00000000' },
      discount: { discountAsset: 'BNB' },
    });
    // Weight 1, then 20 with computeCommissionRates (rest-api.md "Test new order").
    const log = sandbox.control.requestLog().filter((r) => r.path === '/api/v3/order/test');
    expect(log.map((r) => r.weight)).toEqual([1, 20]);
    // Validated like a real order: off the tick is PRICE_FILTER; nothing was placed either way.
    await expect(client.restAPI.orderTest({ ...test, price: 50000.001 })).rejects.toMatchObject({
      code: -1013,
      message: 'Filter failure: PRICE_FILTER',
    });
    expect(sandbox.control.orders(apiKey)).toHaveLength(before);
  });

  it('gets 429 then 418 as TooManyRequestsError and RateLimitBanError, with Retry-After on the wire', async () => {
    await clearOfWindowEnd(60_000);
    sandbox.control.setLimits({ REQUEST_WEIGHT: 40 });
    await client.restAPI.exchangeInfo();
    await client.restAPI.exchangeInfo();
    const throttled = await client.restAPI.exchangeInfo().catch((e: unknown) => e);
    expect(throttled).toBeInstanceOf(TooManyRequestsError);
    expect(throttled).toMatchObject({
      code: -1003,
      message: expect.stringContaining('current limit is 40 request weight per 1 MINUTE'),
    });
    // Later than a request in flight could arrive, still inside Retry-After: banned.
    await sleep(IN_FLIGHT_MS + 100);
    const banned = await client.restAPI.ping().catch((e: unknown) => e);
    expect(banned).toBeInstanceOf(RateLimitBanError);
    expect(banned).toMatchObject({ code: -1003, message: expect.stringContaining('IP banned until') });
    // @binance/spot drops the headers of a refusal; Binance's older connector keeps them (axios).
    const legacy = new LegacySpot(apiKey, secret, { baseURL: sandbox.url });
    const refusal = (await legacy.time().catch((e: unknown) => e)) as {
      response: { status: number; headers: Record<string, string> };
    };
    expect(refusal.response.status).toBe(418);
    expect(Number(refusal.response.headers['retry-after'])).toBeGreaterThan(100);
    expect(Number(refusal.response.headers['retry-after'])).toBeLessThanOrEqual(120);

    sandbox.control.resetLimits();
    sandbox.control.forceOverLimit({ status: 429, retryAfterS: 7 });
    const forced = (await legacy.time().catch((e: unknown) => e)) as {
      response: { status: number; headers: Record<string, string> };
    };
    expect(forced.response.status).toBe(429);
    expect(Number(forced.response.headers['retry-after'])).toBeLessThanOrEqual(7);
  });
});

describe('@binance/spot WebSocket API: the user data stream', () => {
  it('subscribes with a signature and receives executionReport for a placed order', async () => {
    const connection = await client.websocketAPI.connect();
    try {
      const { response, stream } = await connection.userDataStreamSubscribeSignature();
      expect(response.data).toMatchObject({ subscriptionId: expect.any(Number) });
      const events: Array<{ e?: string; c?: string; X?: string }> = [];
      const reported = new Promise<void>((resolve) => {
        stream.on('message', (event) => {
          events.push(event as { e?: string; c?: string; X?: string });
          if ((event as { c?: string }).c === 'ws-1') resolve();
        });
      });
      await client.restAPI.newOrder(limitBuy('50000', { newClientOrderId: 'ws-1' }));
      await reported;
      expect(events.find((e) => e.c === 'ws-1')).toMatchObject({ e: 'executionReport', X: 'NEW' });
    } finally {
      await connection.disconnect();
    }
  });
});
