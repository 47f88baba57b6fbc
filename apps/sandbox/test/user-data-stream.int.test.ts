import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type SandboxExchangeHandle, startSandboxExchange } from '../src/index';
import { type BinanceJson, type Credentials, limitOrder, signed } from './support/binance-http';
import { FIXED_BTC_USDT } from './support/markets';

let sandbox: SandboxExchangeHandle;
let trader: Credentials;

/** A WebSocket that keeps every JSON message it received, and lets a test wait for one. */
type Listener = {
  ws: WebSocket;
  messages: BinanceJson[];
  next: (match: (m: BinanceJson) => boolean) => Promise<BinanceJson>;
};

const listen = (url: string): Promise<Listener> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const messages: BinanceJson[] = [];
    const waiters: { match: (m: BinanceJson) => boolean; done: (m: BinanceJson) => void }[] = [];
    ws.on('message', (data) => {
      const message = JSON.parse(String(data));
      messages.push(message);
      for (const waiter of [...waiters]) {
        if (waiter.match(message)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.done(message);
        }
      }
    });
    const next = (match: (m: BinanceJson) => boolean) =>
      new Promise<BinanceJson>((done) => {
        const seen = messages.find(match);
        if (seen) return done(seen);
        waiters.push({ match, done });
      });
    ws.once('open', () => resolve({ ws, messages, next }));
    ws.once('error', reject);
  });

const userStream = async (method: 'POST' | 'PUT' | 'DELETE', creds: Credentials, listenKey?: string) => {
  const query = listenKey ? `?listenKey=${listenKey}` : '';
  const response = await fetch(`${sandbox.url}/api/v3/userDataStream${query}`, {
    method,
    headers: { 'X-MBX-APIKEY': creds.apiKey },
  });
  return { status: response.status, body: (await response.json()) as BinanceJson };
};

const reports = (l: Listener, clientOrderId: string) =>
  l.messages.filter((m) => m.e === 'executionReport' && (m.c === clientOrderId || m.C === clientOrderId));

beforeAll(async () => {
  sandbox = await startSandboxExchange({
    port: 0,
    markets: [FIXED_BTC_USDT],
  });
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
  sandbox.control.setPrice('BTCUSDT', '60000');
});

describe('listenKey stream', () => {
  it('pushes executionReport for a placed, filled and cancelled order of its account only', async () => {
    const opened = await userStream('POST', trader);
    expect(opened.status).toBe(200);
    const stream = await listen(`${sandbox.wsUrl}/ws/${opened.body.listenKey}`);
    const other = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    await signed(
      sandbox.url,
      'POST',
      '/api/v3/order',
      other,
      limitOrder('BTCUSDT', 'BUY', '0.001', '59000', 'other-1'),
    );

    await signed(
      sandbox.url,
      'POST',
      '/api/v3/order',
      trader,
      limitOrder('BTCUSDT', 'BUY', '0.001', '59000', 'buy-1'),
    );
    await signed(
      sandbox.url,
      'POST',
      '/api/v3/order',
      trader,
      limitOrder('BTCUSDT', 'BUY', '0.001', '58000', 'buy-2'),
    );
    sandbox.control.setPrice('BTCUSDT', '58500');
    await signed(sandbox.url, 'DELETE', '/api/v3/order', trader, {
      symbol: 'BTCUSDT',
      origClientOrderId: 'buy-2',
      newClientOrderId: 'cancel-2',
    });
    await stream.next((m) => m.e === 'executionReport' && m.x === 'CANCELED');

    const [placed, filled] = reports(stream, 'buy-1');
    expect(placed).toMatchObject({
      s: 'BTCUSDT',
      c: 'buy-1',
      S: 'BUY',
      o: 'LIMIT',
      q: '0.00100000',
      p: '59000.00000000',
      x: 'NEW',
      X: 'NEW',
      l: '0.00000000',
      z: '0.00000000',
      t: -1,
      w: true,
    });
    expect(filled).toMatchObject({
      c: 'buy-1',
      x: 'TRADE',
      X: 'FILLED',
      l: '0.00100000',
      z: '0.00100000',
      L: '59000.00000000',
      n: '0.00000100',
      N: 'BTC',
      Z: '59.00000000',
      Y: '59.00000000',
      m: true,
      w: false,
    });
    expect(filled.i).toBe(placed.i);
    expect(filled.t).toBeGreaterThan(0);
    const canceled = reports(stream, 'buy-2').at(-1);
    expect(canceled).toMatchObject({ c: 'cancel-2', C: 'buy-2', x: 'CANCELED', X: 'CANCELED' });
    expect(stream.messages.some((m) => m.c === 'other-1')).toBe(false);
    const position = stream.messages.filter((m) => m.e === 'outboundAccountPosition').at(-1);
    expect(position.B).toEqual(
      expect.arrayContaining([{ a: 'USDT', f: expect.any(String), l: '0.00000000' }]),
    );
    stream.ws.close();
  });

  it('refuses an unknown listenKey and closes the stream when its listenKey is deleted', async () => {
    await expect(listen(`${sandbox.wsUrl}/ws/not-a-key`)).rejects.toThrow(/400/);
    const { body } = await userStream('POST', trader);
    expect((await userStream('PUT', trader, body.listenKey)).status).toBe(200);
    const stranger = sandbox.control.createAccount();
    expect((await userStream('PUT', stranger, body.listenKey)).body.code).toBe(-1125);
    const stream = await listen(`${sandbox.wsUrl}/ws/${body.listenKey}`);
    const closed = new Promise((done) => stream.ws.once('close', done));
    expect((await userStream('DELETE', trader, body.listenKey)).status).toBe(200);
    await closed;
    await expect(listen(`${sandbox.wsUrl}/ws/${body.listenKey}`)).rejects.toThrow(/400/);
    expect((await userStream('POST', { apiKey: 'unknown', secret: '' })).status).toBe(401);
  });
});

describe('WebSocket API subscription (what ccxt uses for spot)', () => {
  const subscribeRequest = (creds: Credentials, secret = creds.secret) => {
    const params: Record<string, string> = { apiKey: creds.apiKey, timestamp: String(Date.now()) };
    const payload = Object.keys(params)
      .sort()
      .map((k) => `${k}=${params[k]}`)
      .join('&');
    const signature = createHmac('sha256', secret).update(payload).digest('hex');
    return { id: '1', method: 'userDataStream.subscribe.signature', params: { ...params, signature } };
  };

  it('subscribes with a signed request and wraps events in { subscriptionId, event }', async () => {
    const api = await listen(`${sandbox.wsUrl}/ws-api/v3`);
    api.ws.send(JSON.stringify(subscribeRequest(trader)));
    const answer = await api.next((m) => m.id === '1');
    expect(answer).toMatchObject({ status: 200, result: { subscriptionId: 0 } });
    await signed(
      sandbox.url,
      'POST',
      '/api/v3/order',
      trader,
      limitOrder('BTCUSDT', 'BUY', '0.001', '61000', 'now-1'),
    );
    const trade = await api.next((m) => m.event?.x === 'TRADE');
    expect(trade).toMatchObject({
      subscriptionId: 0,
      event: { e: 'executionReport', c: 'now-1', X: 'FILLED' },
    });
    api.ws.close();
  });

  it('refuses a bad signature', async () => {
    const api = await listen(`${sandbox.wsUrl}/ws-api/v3`);
    api.ws.send(JSON.stringify(subscribeRequest(trader, 'wrong-secret')));
    const answer = await api.next((m) => m.id === '1');
    expect(answer).toMatchObject({ status: 400, error: { code: -1022 } });
    api.ws.close();
  });
});
