import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { WebsocketClient } from 'bybit-api';
import ccxt from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type SandboxExchangeHandle, startSandboxExchange } from '../src/index';
import { FIXED_BTC_USDT } from './support/markets';

/**
 * The Bybit dialect's private stream `/v5/private` (docs/venues/bybit.md#user-data-stream), judged
 * by ccxt.pro's `bybit` (watchOrders, watchMyTrades) and bybit-api's WebsocketClient, plus raw
 * frames for what the clients cannot send. Shapes as ccxt records them from Bybit (pro/bybit.js).
 */
let sandbox: SandboxExchangeHandle;
let wsUrl: string;

type Credentials = { apiKey: string; secret: string };

beforeAll(async () => {
  sandbox = await startSandboxExchange({ port: 0, bybitPort: 0, markets: [FIXED_BTC_USDT] });
  wsUrl = `${sandbox.bybitUrl.replace(/^http/, 'ws')}/v5/private`;
});
afterAll(async () => sandbox.close());

type Frame = Record<string, unknown>;

/** Until the sandbox has `count` connections subscribed to `topic` (a client subscribes asynchronously). */
const subscribed = async (topic: string, count = 1) => {
  const deadline = Date.now() + 10_000;
  while (sandbox.bybit.stream.subscribers(topic) < count && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  expect(sandbox.bybit.stream.subscribers(topic)).toBeGreaterThanOrEqual(count);
};

/** A raw connection that keeps every frame it receives, so a test can wait for the next one. */
const connect = async (url = wsUrl) => {
  const ws = new WebSocket(url);
  const frames: Frame[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (data) => {
    frames.push(JSON.parse(data.toString()) as Frame);
    for (const w of waiters.splice(0)) w();
  });
  await once(ws, 'open');
  const next = async (match: (f: Frame) => boolean = () => true, timeoutMs = 10_000): Promise<Frame> => {
    const started = Date.now();
    for (;;) {
      const at = frames.findIndex(match);
      if (at !== -1) return frames.splice(at, 1)[0]!;
      if (Date.now() - started > timeoutMs)
        throw new Error(`no matching frame; have ${JSON.stringify(frames)}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  };
  const send = (message: object) => ws.send(JSON.stringify(message));
  return { ws, frames, next, send };
};

const authArgs = ({ apiKey, secret }: Credentials, expires = Date.now() + 10_000) => [
  apiKey,
  expires,
  createHmac('sha256', secret).update(`GET/realtime${expires}`).digest('hex'),
];

/** ccxt.pro's bybit on the sandbox; a ws:// URL needs its HTTP agent loaded first (Exchange.js). */
const ccxtPro = async (credentials: Credentials) => {
  const exchange = new ccxt.pro.bybit({ ...credentials, options: { defaultType: 'spot' } });
  const url = sandbox.bybitUrl;
  const ws = wsUrl;
  exchange.urls.api = {
    spot: url,
    futures: url,
    v2: url,
    public: url,
    private: url,
    ws: {
      public: { spot: ws, inverse: ws, linear: ws, option: ws, usdc: { option: ws, perpetual: ws } },
      private: { spot: { unified: ws, nonUnified: ws }, contract: ws, usdc: ws, trade: ws },
    },
  };
  await exchange.loadHttpProxyAgent();
  return exchange;
};

describe('authentication and control frames', () => {
  it('authenticates with HMAC-SHA256 of GET/realtime + expires; answers ping with pong', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '100' } });
    const c = await connect();
    c.send({ req_id: 'a1', op: 'auth', args: authArgs(trader) });
    expect(await c.next()).toEqual({
      req_id: 'a1',
      success: true,
      ret_msg: '',
      op: 'auth',
      conn_id: expect.stringMatching(/^[0-9a-z]+-[0-9a-z]+$/),
    });
    c.send({ req_id: 'p1', op: 'ping' });
    const pong = await c.next();
    expect(pong).toMatchObject({ req_id: 'p1', op: 'pong', args: [expect.stringMatching(/^\d+$/)] });
    c.send({ op: 'auth', args: authArgs(trader) });
    expect(await c.next()).toMatchObject({ success: false, op: 'auth', ret_msg: 'Repeat auth' });
    c.ws.close();
  });

  it('refuses an expired auth with Params Error, an unknown key or a bad signature, and subscribing unauthenticated', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '100' } });
    const c = await connect();
    c.send({ op: 'subscribe', args: ['order'] });
    expect(await c.next()).toMatchObject({
      success: false,
      op: 'subscribe',
      ret_msg: 'Request not authorized',
    });
    c.send({ op: 'auth', args: authArgs(trader, Date.now() - 1) });
    expect(await c.next()).toMatchObject({ success: false, op: 'auth', ret_msg: 'Params Error' });
    c.send({ op: 'auth', args: ['x'] });
    expect(await c.next()).toMatchObject({ success: false, op: 'auth', ret_msg: 'Params Error' });
    c.send({ op: 'auth', args: authArgs({ ...trader, secret: 'wrong' }) });
    expect(await c.next()).toMatchObject({ success: false, op: 'auth' });
    c.send({ op: 'auth', args: authArgs({ ...trader, apiKey: 'NoSuchKey123' }) });
    expect(await c.next()).toMatchObject({ success: false, op: 'auth' });
    c.send({ op: 'dance' });
    expect(await c.next()).toMatchObject({ success: false, op: 'dance' });
    c.ws.close();
  });

  it('subscribes, refuses an unknown topic, and stops pushing after unsubscribe', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    const c = await connect();
    c.send({ op: 'auth', args: authArgs(trader) });
    await c.next((f) => f.op === 'auth');
    c.send({ req_id: 's1', op: 'subscribe', args: ['order.spot', 'wallet'] });
    expect(await c.next()).toMatchObject({ req_id: 's1', success: true, op: 'subscribe' });
    c.send({ op: 'subscribe', args: ['position'] });
    expect(await c.next()).toMatchObject({ success: false, op: 'subscribe' });
    const client = await ccxtPro(trader);
    await client.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 59000, { clientOrderId: 'sub-1' });
    const order = await c.next((f) => f.topic === 'order.spot');
    expect(order).toMatchObject({ id: expect.any(String), creationTime: expect.any(Number) });
    expect((order.data as Frame[])[0]).toMatchObject({
      category: 'spot',
      orderLinkId: 'sub-1',
      orderStatus: 'New',
      leavesQty: '0.001',
    });
    const wallet = await c.next((f) => f.topic === 'wallet');
    const account = (wallet.data as Array<{ accountType: string; coin: Frame[] }>)[0]!;
    expect(account.accountType).toBe('UNIFIED');
    expect(account.coin.find((coin) => coin.coin === 'USDT')).toMatchObject({
      walletBalance: '1000',
      locked: '59',
    });
    c.send({ op: 'unsubscribe', args: ['order.spot', 'wallet'] });
    expect(await c.next((f) => f.op === 'unsubscribe')).toMatchObject({ success: true });
    await client.cancelOrder('', 'BTC/USDT', { orderLinkId: 'sub-1' });
    await new Promise((r) => setTimeout(r, 200));
    expect(c.frames.filter((f) => f.topic)).toEqual([]);
    c.ws.close();
    await client.close();
  });

  it('drops a connection with no ping and no data for its max_active_time; refuses one out of range', async () => {
    sandbox.bybit.stream.setIdleMs(300);
    try {
      const c = await connect();
      const started = Date.now();
      await once(c.ws, 'close');
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    } finally {
      sandbox.bybit.stream.setIdleMs();
    }
    const bad = new WebSocket(`${wsUrl}?max_active_time=5s`);
    const [error] = (await once(bad, 'error')) as [Error];
    expect(error.message).toMatch(/400/);
  });
});

describe('ccxt.pro bybit', () => {
  it('watchOrders sees a new order, a partial fill, a fill and a cancel', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000', BTC: '0.01' } });
    const client = await ccxtPro(trader);
    await client.loadMarkets();
    const base = sandbox.bybit.stream.subscribers('order');
    const seen: string[] = [];
    let stopped = false;
    // One loop for the whole test: every update ccxt returns, as status/filled/clientOrderId.
    const loop = (async () => {
      while (!stopped) {
        const orders = await client.watchOrders('BTC/USDT');
        for (const o of orders) seen.push(`${o.clientOrderId} ${o.status} ${o.filled}`);
      }
    })().catch(() => undefined);
    const until = async (entry: string) => {
      const deadline = Date.now() + 10_000;
      while (!seen.includes(entry) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(seen).toContain(entry);
    };
    await subscribed('order', base + 1);
    await client.createOrder('BTC/USDT', 'limit', 'buy', 0.002, 59000, { clientOrderId: 'w-1' });
    await until('w-1 open 0');
    sandbox.control.fillPart(trader.apiKey, 'BTCUSDT', 'w-1', '0.001');
    await until('w-1 open 0.001');
    sandbox.control.setPrice('BTCUSDT', '59000');
    await until('w-1 closed 0.002');
    sandbox.control.setPrice('BTCUSDT', '60000');
    await client.createOrder('BTC/USDT', 'limit', 'sell', 0.001, 61000, { clientOrderId: 'w-2' });
    await until('w-2 open 0');
    await client.cancelOrder('', 'BTC/USDT', { orderLinkId: 'w-2' });
    await until('w-2 canceled 0');
    stopped = true;
    await client.close();
    await loop;
  });

  it('watchMyTrades sees each fill with its fee', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    const client = await ccxtPro(trader);
    await client.loadMarkets();
    const base = sandbox.bybit.stream.subscribers('execution');
    const trades = client.watchMyTrades('BTC/USDT');
    await subscribed('execution', base + 1);
    await client.createOrder('BTC/USDT', 'limit', 'buy', 0.002, 59000, { clientOrderId: 't-1' });
    sandbox.control.fillPart(trader.apiKey, 'BTCUSDT', 't-1', '0.001');
    const [trade] = await trades;
    expect(trade).toMatchObject({
      symbol: 'BTC/USDT',
      side: 'buy',
      price: 59000,
      amount: 0.001,
      cost: 59,
      takerOrMaker: 'maker',
      fee: { currency: 'BTC', cost: 0.000001 },
    });
    expect(trade?.id).toMatch(/^\d+$/);
    await client.close();
  });
});

/** bybit-api's logger, quiet. */
const silent = { trace: () => undefined, info: () => undefined, error: () => undefined };

describe('bybit-api WebsocketClient', () => {
  it('authenticates, subscribes to order and execution, and receives a fill', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    const client = new WebsocketClient(
      {
        key: trader.apiKey,
        secret: trader.secret,
        market: 'v5',
        wsUrl,
      },
      silent,
    );
    const updates: Frame[] = [];
    client.on('update', (data: Frame) => updates.push(data));
    try {
      await Promise.all(client.subscribeV5(['order', 'execution'], 'spot', true));
      const ccxtClient = await ccxtPro(trader);
      await ccxtClient.createMarketBuyOrderWithCost('BTC/USDT', 30);
      await ccxtClient.close();
      const deadline = Date.now() + 10_000;
      while (!updates.some((u) => u.topic === 'execution') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const execution = updates.find((u) => u.topic === 'execution');
      expect((execution?.data as Frame[] | undefined)?.[0]).toMatchObject({
        category: 'spot',
        symbol: 'BTCUSDT',
        side: 'Buy',
        execPrice: '60000',
        execQty: '0.0005',
        execFee: '0.0000005',
        feeCurrency: 'BTC',
        isMaker: false,
      });
      const filled = updates
        .filter((u) => u.topic === 'order')
        .flatMap((u) => u.data as Frame[])
        .find((o) => o.orderStatus === 'Filled');
      expect(filled).toMatchObject({ cumExecQty: '0.0005', cumExecValue: '30', avgPrice: '60000' });
    } finally {
      client.closeAll(true);
    }
  });
});
