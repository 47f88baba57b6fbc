import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Spot } from '@binance/connector';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxExchangeHandle, startSandboxExchange } from '../src/index';
import { FIXED_BTC_USDT, REPLAYED_ETH_USDT } from './support/markets';

/*
 * Binance's own Node.js connector (not ccxt) against the sandbox over HTTP: it builds requests
 * the way Binance documents them (parameters in the query string of a POST/DELETE, a JSON
 * content type with no body, HMAC-SHA256 over the query), so this checks the dialect, not one
 * client's habits.
 */

const DAY = 86_400_000;
let sandbox: SandboxExchangeHandle;
let client: Spot;

type BinanceFailure = { response: { status: number; data: { code: number; msg: string } } };
const failure = async (call: Promise<unknown>) => {
  const error = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as BinanceFailure | undefined;
  if (!error?.response) throw new Error('expected the exchange to refuse the request');
  return { status: error.response.status, ...error.response.data };
};

beforeAll(async () => {
  sandbox = await startSandboxExchange({
    port: 0,
    markets: [FIXED_BTC_USDT, REPLAYED_ETH_USDT],
  });
  const { apiKey, secret } = sandbox.control.createAccount({ balances: { USDT: '1000' } });
  client = new Spot(apiKey, secret, { baseURL: sandbox.url, timeout: 30_000 });
}, 60_000);
afterAll(async () => sandbox?.close());

describe('@binance/connector against the sandbox', () => {
  it('reads the server time and the filters of exchangeInfo as Binance documents them', async () => {
    const { data: time, headers } = await client.time();
    expect(Math.abs(time.serverTime - Date.now())).toBeLessThan(60_000);
    expect(Number(headers['x-mbx-used-weight-1m'])).toBeGreaterThan(0);
    const { data: info } = await client.exchangeInfo({ symbol: 'BTCUSDT' });
    expect(info.symbols).toHaveLength(1);
    const filters = Object.fromEntries(
      info.symbols[0].filters.map((f: { filterType: string }) => [f.filterType, f]),
    );
    expect(filters.PRICE_FILTER).toMatchObject({ tickSize: '0.01000000' });
    expect(filters.LOT_SIZE).toMatchObject({ stepSize: '0.00001000', minQty: '0.00001000' });
    expect(filters.NOTIONAL).toMatchObject({ minNotional: '5.00000000' });
  });

  it('places, queries and cancels a resting limit order; the account shows the locked USDT', async () => {
    const { data: placed } = await client.newOrder('BTCUSDT', 'BUY', 'LIMIT', {
      price: '50000',
      quantity: '0.001',
      timeInForce: 'GTC',
      newClientOrderId: 'connector-1',
      newOrderRespType: 'FULL',
    });
    expect(placed).toMatchObject({
      symbol: 'BTCUSDT',
      status: 'NEW',
      clientOrderId: 'connector-1',
      fills: [],
    });

    const { data: open } = await client.openOrders({ symbol: 'BTCUSDT' });
    expect(open.map((o: { orderId: number }) => o.orderId)).toEqual([placed.orderId]);
    const { data: queried } = await client.getOrder('BTCUSDT', { origClientOrderId: 'connector-1' });
    expect(queried).toMatchObject({
      orderId: placed.orderId,
      price: '50000.00000000',
      origQty: '0.00100000',
    });
    const { data: account } = await client.account();
    expect(account.balances.find((b: { asset: string }) => b.asset === 'USDT')).toMatchObject({
      free: '950.00000000',
      locked: '50.00000000',
    });

    const { data: cancelled } = await client.cancelOrder('BTCUSDT', { orderId: placed.orderId });
    expect(cancelled).toMatchObject({ orderId: placed.orderId, status: 'CANCELED' });
    expect((await client.openOrders({ symbol: 'BTCUSDT' })).data).toEqual([]);
  });

  it('fills a market order (FULL answer with fills) and lists it in myTrades', async () => {
    const { data: bought, headers } = await client.newOrder('BTCUSDT', 'BUY', 'MARKET', {
      quoteOrderQty: '60',
    });
    expect(Number(headers['x-mbx-order-count-1d'])).toBeGreaterThan(0);
    expect(bought.status).toBe('FILLED');
    expect(bought.fills).toEqual([
      expect.objectContaining({ price: '60000.00000000', qty: '0.00100000', commissionAsset: 'BTC' }),
    ]);
    const { data: trades } = await client.myTrades('BTCUSDT');
    expect(trades.map((t: { orderId: number }) => t.orderId)).toContain(bought.orderId);
    const { data: ack } = await client.newOrder('BTCUSDT', 'SELL', 'MARKET', {
      quantity: '0.0005',
      newOrderRespType: 'ACK',
    });
    expect(Object.keys(ack).sort()).toEqual([
      'clientOrderId',
      'orderId',
      'orderListId',
      'symbol',
      'transactTime',
    ]);
  });

  it("answers Binance's error codes as { code, msg }", async () => {
    const offTick = await failure(
      client.newOrder('BTCUSDT', 'BUY', 'LIMIT', {
        price: '50000.001',
        quantity: '0.001',
        timeInForce: 'GTC',
      }),
    );
    expect(offTick).toEqual({ status: 400, code: -1013, msg: 'Filter failure: PRICE_FILTER' });
    const tooSmall = await failure(
      client.newOrder('BTCUSDT', 'BUY', 'LIMIT', { price: '50000', quantity: '0.00001', timeInForce: 'GTC' }),
    );
    expect(tooSmall).toMatchObject({ status: 400, code: -1013, msg: 'Filter failure: NOTIONAL' });
    const broke = await failure(
      client.newOrder('BTCUSDT', 'BUY', 'LIMIT', { price: '50000', quantity: '1', timeInForce: 'GTC' }),
    );
    expect(broke).toMatchObject({ status: 400, code: -2010 });
    const unknownOrder = await failure(client.cancelOrder('BTCUSDT', { orderId: 987654321 }));
    expect(unknownOrder).toMatchObject({ status: 400, code: -2011, msg: 'Unknown order sent.' });
    const badSymbol = await failure(client.tickerPrice('NOPEUSDT'));
    expect(badSymbol).toMatchObject({ status: 400, code: -1121, msg: 'Invalid symbol.' });
    const missing = await failure(client.newOrder('BTCUSDT', 'BUY', 'LIMIT', { quantity: '0.001' }));
    expect(missing).toMatchObject({ status: 400, code: -1102 });
    const wrongKey = new Spot('unknownKey', 'x', { baseURL: sandbox.url });
    expect(await failure(wrongKey.account())).toMatchObject({ status: 401, code: -2015 });
  });

  it('serves weeks of past klines before the sandbox started, within startTime/endTime/limit', async () => {
    const now = Date.now();
    const startTime = now - 400 * DAY;
    const { data: days } = await client.klines('ETHUSDT', '1d', { startTime, limit: 1000 });
    expect(days.length).toBeGreaterThanOrEqual(399);
    expect(days[0][0]).toBeGreaterThanOrEqual(startTime - DAY);
    for (const [openTime, open, high, low, close, , closeTime] of days) {
      expect(closeTime).toBe(openTime + DAY - 1);
      expect(Number(high)).toBeGreaterThanOrEqual(Math.max(Number(open), Number(close)));
      expect(Number(low)).toBeLessThanOrEqual(Math.min(Number(open), Number(close)));
    }
    const from = now - 30 * DAY - (now % 60_000);
    const { data: minutes } = await client.klines('ETHUSDT', '1m', {
      startTime: from,
      endTime: from + 59 * 60_000,
    });
    expect(minutes).toHaveLength(60);
    expect(minutes.every(([t]: [number], i: number) => i === 0 || t - minutes[i - 1][0] === 60_000)).toBe(
      true,
    );
    // The past ends where the live feed starts: the last past minute closes at the first live price.
    const { data: last } = await client.klines('ETHUSDT', '1m', { limit: 3 });
    expect(last.at(-1)[0]).toBeGreaterThan(now - 5 * 60_000);
    const { data: price } = await client.tickerPrice('ETHUSDT');
    expect(Number(price.price)).toBeGreaterThan(0);
    // The last 24 hours reach into the past: the window opens a day ago, not at the sandbox's start.
    const { data: day } = await client.ticker24hr('ETHUSDT');
    expect(day.openTime).toBeLessThan(now - 23 * 3_600_000);
    expect(day.count).toBeGreaterThan(1000);
    const badInterval = await failure(client.klines('ETHUSDT', '7m'));
    expect(badInterval).toMatchObject({ status: 400, code: -1120 });
  });
});

describe('@binance/connector against the sandbox process (replayed candles)', () => {
  it('reads 400 days of daily klines and minute klines of a 5-minute series, and trades', async () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/sandbox/src/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        LOG_LEVEL: 'silent',
        SANDBOX_PORT: '0',
        HEALTH_PORT: 'off',
        SANDBOX_MARKETS: 'replay',
        SANDBOX_TICK_MS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          const match = /sandbox exchange on (http:\/\/\S+)/.exec(output);
          if (match) resolve(match[1]!);
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        child.once('exit', (code) => reject(new Error(`sandbox exited (${code}): ${output}`)));
      });
      const created = await fetch(`${url}/_sandbox/accounts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ balances: { USDT: '1000' } }),
      });
      const { apiKey, secret } = (await created.json()) as { apiKey: string; secret: string };
      const spot = new Spot(apiKey, secret, { baseURL: url, timeout: 30_000 });

      const now = Date.now();
      const { data: days } = await spot.klines('ETHUSDT', '1d', { startTime: now - 400 * DAY, limit: 1000 });
      expect(days.length).toBeGreaterThanOrEqual(399);
      // XRP/USDT replays a 5-minute series: its past minutes are cut from those candles, one a minute.
      const from = now - 10 * DAY - (now % 60_000);
      const { data: minutes } = await spot.klines('XRPUSDT', '1m', { startTime: from, limit: 10 });
      expect(minutes.map(([t]: [number]) => t - from)).toEqual(
        Array.from({ length: 10 }, (_, i) => i * 60_000),
      );

      // One trade at the current price: this market's book made deep enough to take it whole.
      await fetch(`${url}/_sandbox/markets/ETHUSDT/liquidity`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ liquidity: 'infinite' }),
      });
      const { data: price } = await spot.tickerPrice('ETHUSDT');
      const { data: bought } = await spot.newOrder('ETHUSDT', 'BUY', 'MARKET', { quoteOrderQty: '20' });
      expect(bought).toMatchObject({
        status: 'FILLED',
        fills: [expect.objectContaining({ price: price.price })],
      });
    } finally {
      child.kill();
    }
  }, 120_000);
});
