import { createHmac } from 'node:crypto';
import { RestClient, WebsocketClient } from 'okx-api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type SandboxExchangeHandle, startSandboxExchange } from '../src/index';
import { FIXED_BTC_USDT } from './support/markets';
import { ccxtProOkx, type OkxCredentials, okxSigned } from './support/okx-clients';

/**
 * The OKX dialect's private WebSocket (`/ws/v5/private`) by hand, through ccxt.pro's okx
 * `watchOrders` and through OKX's Node SDK (okx-api: its WebsocketClient, and its RestClient for
 * market data, balance and the order lifecycle).
 */
let sandbox: SandboxExchangeHandle;

beforeAll(async () => {
  sandbox = await startSandboxExchange({ port: 0, okxPort: 0, markets: [FIXED_BTC_USDT] });
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  sandbox.control.setPrice('BTCUSDT', '60000');
});

const wsUrl = () => `${sandbox.okxUrl.replace(/^http/, 'ws')}/ws/v5/private`;

/** A raw connection that queues what it receives. */
const connect = async () => {
  const ws = new WebSocket(wsUrl());
  const inbox: unknown[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (data) => {
    const text = data.toString();
    inbox.push(text === 'pong' ? text : JSON.parse(text));
    for (const wake of waiters.splice(0)) wake();
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  /** The next message matching `pick`, waiting up to 5 s. */
  const next = async <T = Record<string, unknown>>(
    pick: (m: unknown) => boolean = () => true,
  ): Promise<T> => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const at = inbox.findIndex(pick);
      if (at !== -1) return inbox.splice(at, 1)[0] as T;
      if (Date.now() > deadline) throw new Error(`no such message; got ${JSON.stringify(inbox)}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  };
  const send = (message: unknown) => ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  return { ws, next, send };
};

const loginArgs = (c: OkxCredentials, options: { timestamp?: string; sign?: string } = {}) => {
  const timestamp = options.timestamp ?? String(Math.floor(Date.now() / 1000));
  const sign =
    options.sign ??
    createHmac('sha256', c.secret).update(`${timestamp}GET/users/self/verify`).digest('base64');
  return { op: 'login', args: [{ apiKey: c.apiKey, passphrase: c.passphrase, timestamp, sign }] };
};

const placeLimit = (c: OkxCredentials, px: string, clOrdId?: string) =>
  okxSigned(sandbox.okxUrl, 'POST', '/api/v5/trade/order', c, {
    instId: 'BTC-USDT',
    tdMode: 'cash',
    side: 'buy',
    ordType: 'limit',
    sz: '0.001',
    px,
    ...(clOrdId ? { clOrdId } : {}),
  });

type Push = { arg: Record<string, string>; data: Record<string, string>[] };
const isPush = (channel: string) => (m: unknown) =>
  (m as Push)?.arg?.channel === channel && Array.isArray((m as Push).data);
const isOrderPush = isPush('orders');

describe('the private WebSocket by hand', () => {
  it('answers ping with pong, and refuses a subscription before login (60011)', async () => {
    const { ws, next, send } = await connect();
    send('ping');
    expect(await next((m) => m === 'pong')).toBe('pong');
    send({ op: 'subscribe', args: [{ channel: 'orders', instType: 'SPOT' }] });
    expect(await next()).toMatchObject({ event: 'error', code: '60011', msg: 'Please log in' });
    send('not json');
    expect(await next()).toMatchObject({ event: 'error', code: '60012' });
    ws.close();
  });

  it('refuses a wrong sign (60009), an expired timestamp (60006) and a wrong passphrase (60024)', async () => {
    const trader = sandbox.control.createAccount({});
    const { ws, next, send } = await connect();
    send(loginArgs(trader, { sign: 'AAAA' }));
    expect(await next()).toMatchObject({ event: 'error', code: '60009', msg: 'Login failure' });
    send(loginArgs(trader, { timestamp: String(Math.floor(Date.now() / 1000) - 60) }));
    expect(await next()).toMatchObject({ event: 'error', code: '60006' });
    send(loginArgs({ ...trader, passphrase: 'wrong' }));
    expect(await next()).toMatchObject({ event: 'error', code: '60024' });
    send({ op: 'login', args: [{ ...loginArgs(trader).args[0], apiKey: 'nobody' }] });
    expect(await next()).toMatchObject({ event: 'error', code: '60005' });
    ws.close();
  });

  it('pushes every change of the account orders: live, filled, canceled; and the account channel', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    const { ws, next, send } = await connect();
    send(loginArgs(trader));
    expect(await next()).toMatchObject({ event: 'login', code: '0', msg: '' });
    send({
      op: 'subscribe',
      args: [
        { channel: 'orders', instType: 'SPOT' },
        { channel: 'account', ccy: 'USDT' },
      ],
    });
    expect(await next((m) => (m as { event?: string }).event === 'subscribe')).toMatchObject({
      arg: { channel: 'orders', instType: 'SPOT' },
    });
    expect(await next((m) => (m as { event?: string }).event === 'channel-conn-count')).toMatchObject({
      channel: 'orders',
      connCount: '1',
    });
    const first = await next<Push>(isPush('account'));
    expect(first.data[0]?.details).toMatchObject([{ ccy: 'USDT', availBal: '1000' }]);

    const placed = await placeLimit(trader, '50000', 'ws1');
    const ordId = String(placed.body.data[0]?.ordId);
    const live = await next<Push>(isOrderPush);
    expect(live.arg).toMatchObject({ channel: 'orders', instType: 'SPOT', uid: expect.any(String) });
    expect(live.data[0]).toMatchObject({
      ordId,
      clOrdId: 'ws1',
      state: 'live',
      instId: 'BTC-USDT',
      side: 'buy',
    });
    const frozen = await next<Push>(isPush('account'));
    expect(frozen.data[0]?.details).toMatchObject([{ ccy: 'USDT', availBal: '950', frozenBal: '50' }]);

    sandbox.control.setPrice('BTCUSDT', '49999');
    const filled = await next<Push>((m) => isOrderPush(m) && (m as Push).data[0]?.state === 'filled');
    expect(filled.data[0]).toMatchObject({
      ordId,
      fillSz: '0.001',
      fillPx: '50000',
      execType: 'M',
      fillFee: '-0.000001',
      fillFeeCcy: 'BTC',
    });

    const second = await placeLimit(trader, '40000');
    const secondId = String(second.body.data[0]?.ordId);
    await okxSigned(sandbox.okxUrl, 'POST', '/api/v5/trade/cancel-order', trader, {
      instId: 'BTC-USDT',
      ordId: secondId,
    });
    const canceled = await next<Push>((m) => isOrderPush(m) && (m as Push).data[0]?.state === 'canceled');
    expect(canceled.data[0]).toMatchObject({ ordId: secondId, clOrdId: '' });
    ws.close();
  });

  it("another account's orders are not pushed", async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    const stranger = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    const { ws, next, send } = await connect();
    send(loginArgs(trader));
    await next();
    send({ op: 'subscribe', args: [{ channel: 'orders', instType: 'ANY' }] });
    await next();
    await placeLimit(stranger, '50000');
    await placeLimit(trader, '45000', 'mine');
    expect((await next<Push>(isOrderPush)).data[0]).toMatchObject({ clOrdId: 'mine' });
    ws.close();
  });
});

describe('ccxt.pro okx', () => {
  it('watchOrders sees a placement and its fill', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    const exchange = ccxtProOkx(sandbox.okxUrl, trader);
    try {
      // ccxt opens ws:// (not wss://) URLs only with node's http agent loaded first.
      await exchange.loadHttpProxyAgent();
      await exchange.loadMarkets();
      const watching = exchange.watchOrders('BTC/USDT');
      // The subscription goes out with the first call; give it a moment before placing.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const placed = await exchange.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 50000);
      const orders = await watching;
      expect(orders.at(-1)).toMatchObject({
        id: placed.id,
        status: 'open',
        symbol: 'BTC/USDT',
        price: 50000,
      });
      const next = exchange.watchOrders('BTC/USDT');
      sandbox.control.setPrice('BTCUSDT', '49990');
      const after = await next;
      expect(after.at(-1)).toMatchObject({ id: placed.id, status: 'closed', filled: 0.001 });
    } finally {
      await exchange.close();
    }
  });
});

describe("OKX's Node SDK (okx-api)", () => {
  it('RestClient: time, ticker, candles, balance and an order from placing to cancelling', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    const client = new RestClient({
      apiKey: trader.apiKey,
      apiSecret: trader.secret,
      apiPass: trader.passphrase,
      baseUrl: sandbox.okxUrl,
    });
    expect(Math.abs((await client.getServerTime()) - Date.now())).toBeLessThan(5000);
    expect((await client.getTicker({ instId: 'BTC-USDT' }))[0]).toMatchObject({ last: '60000' });
    const candles = await client.getCandles({ instId: 'BTC-USDT', bar: '1m', limit: '3' });
    expect(candles.length).toBeGreaterThan(0);
    const balance = await client.getBalance({ ccy: 'USDT' });
    expect(balance[0]?.details[0]).toMatchObject({ ccy: 'USDT', availBal: '1000' });
    const [placed] = await client.submitOrder({
      instId: 'BTC-USDT',
      tdMode: 'cash',
      side: 'buy',
      ordType: 'limit',
      sz: '0.001',
      px: '50000',
      clOrdId: 'sdk1',
    });
    expect(placed).toMatchObject({ clOrdId: 'sdk1', sCode: '0' });
    const [details] = await client.getOrderDetails({ instId: 'BTC-USDT', clOrdId: 'sdk1' });
    expect(details).toMatchObject({ ordId: placed?.ordId, state: 'live', px: '50000' });
    const pending = await client.getOrderList({ instType: 'SPOT' });
    expect(pending.map((o) => o.ordId)).toEqual([placed?.ordId]);
    const [cancelled] = await client.cancelOrder({ instId: 'BTC-USDT', ordId: String(placed?.ordId) });
    expect(cancelled).toMatchObject({ ordId: placed?.ordId, sCode: '0' });
    await expect(
      client.submitOrder({
        instId: 'BTC-USDT',
        tdMode: 'cash',
        side: 'buy',
        ordType: 'limit',
        sz: '1',
        px: '50000',
      }),
    ).rejects.toMatchObject({ code: '1', data: [{ sCode: '51008' }] });
  });

  it('WebsocketClient: the private orders channel', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    const ws = new WebsocketClient({
      accounts: [{ apiKey: trader.apiKey, apiSecret: trader.secret, apiPass: trader.passphrase }],
      wsUrl: wsUrl(),
    });
    try {
      const update = new Promise<{ data: Record<string, string>[] }>((resolve) =>
        ws.on('update', (event: { arg?: { channel?: string }; data: Record<string, string>[] }) => {
          if (event.arg?.channel === 'orders') resolve(event);
        }),
      );
      const subscribed = new Promise((resolve) =>
        ws.on('response', (event: { event?: string }) => {
          if (event.event === 'subscribe') resolve(event);
        }),
      );
      await Promise.all(ws.subscribe({ channel: 'orders', instType: 'SPOT' }));
      await subscribed;
      await placeLimit(trader, '50000', 'sdkws1');
      expect((await update).data[0]).toMatchObject({ clOrdId: 'sdkws1', state: 'live' });
    } finally {
      ws.closeAll(true);
    }
  });
});
