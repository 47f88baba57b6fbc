import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { BINANCE_USER_DATA_LIMITS, type SandboxExchangeHandle, startSandboxExchange } from '../src/index';
import { type BinanceJson, type Credentials, limitOrder, signed } from './support/binance-http';
import { FIXED_BTC_USDT } from './support/markets';

let sandbox: SandboxExchangeHandle;
const sockets: WebSocket[] = [];

type Api = {
  ws: WebSocket;
  messages: BinanceJson[];
  next: (match: (m: BinanceJson) => boolean) => Promise<BinanceJson>;
  call: (method: string, params?: object) => Promise<BinanceJson>;
  closed: Promise<{ code: number; reason: string }>;
};

let requestId = 0;
const connect = (): Promise<Api> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(`${sandbox.wsUrl}/ws-api/v3`);
    sockets.push(ws);
    const messages: BinanceJson[] = [];
    const waiters: { match: (m: BinanceJson) => boolean; done: (m: BinanceJson) => void }[] = [];
    ws.on('message', (data) => {
      const message = JSON.parse(String(data));
      messages.push(message);
      for (const w of [...waiters]) {
        if (w.match(message)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.done(message);
        }
      }
    });
    const next = (match: (m: BinanceJson) => boolean) =>
      new Promise<BinanceJson>((done) => {
        const seen = messages.find(match);
        if (seen) return done(seen);
        waiters.push({ match, done });
      });
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      ws.once('close', (code, reason) => done({ code, reason: reason.toString() })),
    );
    const call = (method: string, params?: object) => {
      const id = ++requestId;
      ws.send(JSON.stringify({ id, method, ...(params ? { params } : {}) }));
      return next((m) => m.id === id);
    };
    ws.once('open', () => resolve({ ws, messages, next, call, closed }));
    ws.once('unexpected-response', (_req, response) => {
      let body = '';
      response.on('data', (c: Buffer) => {
        body += c.toString();
      });
      response.on('end', () =>
        reject(
          Object.assign(new Error('refused'), {
            status: response.statusCode,
            headers: response.headers,
            body,
          }),
        ),
      );
    });
    ws.once('error', reject);
  });

const signature = (creds: Credentials) => {
  const params: Record<string, string> = { apiKey: creds.apiKey, timestamp: String(Date.now()) };
  const payload = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  return { ...params, signature: createHmac('sha256', creds.secret).update(payload).digest('hex') };
};

const account = () => sandbox.control.createAccount({ balances: { USDT: '1000' } });

beforeAll(async () => {
  sandbox = await startSandboxExchange({ port: 0, markets: [FIXED_BTC_USDT] });
  sandbox.control.setPrice('BTCUSDT', '60000');
});
afterEach(() => {
  for (const ws of sockets.splice(0)) ws.terminate();
  sandbox.userDataConnections.setLimits(BINANCE_USER_DATA_LIMITS);
});
afterAll(async () => sandbox.close());

describe("the WebSocket API's connection and subscription limits (web-socket-api.md)", () => {
  it('carries many accounts on one connection, each event tagged with its subscriptionId', async () => {
    const api = await connect();
    const traders = [account(), account(), account()];
    const ids: number[] = [];
    for (const t of traders) {
      const answer = await api.call('userDataStream.subscribe.signature', signature(t));
      expect(answer.status).toBe(200);
      ids.push(answer.result.subscriptionId);
    }
    expect(new Set(ids).size).toBe(3);
    expect((await api.call('session.subscriptions')).result).toEqual(
      ids.map((subscriptionId) => ({ subscriptionId })),
    );
    await signed(
      sandbox.url,
      'POST',
      '/api/v3/order',
      traders[1]!,
      limitOrder('BTCUSDT', 'BUY', '0.001', '61000', 'second-1'),
    );
    const report = await api.next((m) => m.event?.e === 'executionReport' && m.event.c === 'second-1');
    expect(report.subscriptionId).toBe(ids[1]);

    // Unsubscribing one stops its events (and says so with eventStreamTerminated).
    expect((await api.call('userDataStream.unsubscribe', { subscriptionId: ids[1] })).status).toBe(200);
    await api.next((m) => m.subscriptionId === ids[1] && m.event?.e === 'eventStreamTerminated');
    expect((await api.call('session.subscriptions')).result).toHaveLength(2);
  });

  it('refuses a second subscription of the same account (-2035), more than the active limit (-1191) and more than the lifetime limit (-2042)', async () => {
    sandbox.userDataConnections.setLimits({
      subscriptionsPerConnection: 2,
      subscriptionsPerConnectionLifetime: 3,
    });
    const api = await connect();
    const [a, b, c, d] = [account(), account(), account(), account()];
    expect((await api.call('userDataStream.subscribe.signature', signature(a))).status).toBe(200);
    expect((await api.call('userDataStream.subscribe.signature', signature(a))).error.code).toBe(-2035);
    const second = await api.call('userDataStream.subscribe.signature', signature(b));
    expect(second.status).toBe(200);
    expect((await api.call('userDataStream.subscribe.signature', signature(c))).error).toEqual({
      code: -1191,
      msg: "Too many subscriptions. Connection may create up to '2' subscriptions at a time.",
    });
    await api.call('userDataStream.unsubscribe', { subscriptionId: second.result.subscriptionId });
    expect((await api.call('userDataStream.subscribe.signature', signature(c))).status).toBe(200);
    await api.call('userDataStream.unsubscribe', {});
    // Three started in its life: a fourth needs a new connection.
    expect((await api.call('userDataStream.subscribe.signature', signature(d))).error.code).toBe(-2042);
    const fresh = await connect();
    expect((await fresh.call('userDataStream.subscribe.signature', signature(d))).status).toBe(200);
  });

  it('refuses a key restricted to other IPs (-2015), as REST does; a key that trusts this IP subscribes', async () => {
    const api = await connect();
    const elsewhere = sandbox.control.createAccount({
      balances: { USDT: '1' },
      ipWhitelist: ['203.0.113.7'],
    });
    expect((await api.call('userDataStream.subscribe.signature', signature(elsewhere))).error).toEqual({
      code: -2015,
      msg: 'Invalid API-key, IP, or permissions for action.',
    });
    const here = sandbox.control.createAccount({ balances: { USDT: '1' }, ipWhitelist: ['127.0.0.1'] });
    expect((await api.call('userDataStream.subscribe.signature', signature(here))).status).toBe(200);
  });

  it('refuses connection attempts over the per-IP limit with HTTP 429, -1034 and Retry-After', async () => {
    sandbox.userDataConnections.setLimits({ connectionsPerWindow: 3, connectionWindowMs: 60_000 });
    // The window counts attempts made earlier in it: start from a fresh window's worth.
    const refusedBefore = sandbox.userDataConnections.refused;
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => connect()));
    const refused = results
      .filter((r) => r.status === 'rejected')
      .map((r) => (r as PromiseRejectedResult).reason);
    expect(refused.length).toBeGreaterThanOrEqual(3);
    expect(refused[0].status).toBe(429);
    expect(JSON.parse(refused[0].body)).toMatchObject({ code: -1034 });
    expect(Number(refused[0].headers['retry-after'])).toBeGreaterThan(0);
    expect(sandbox.userDataConnections.refused - refusedBefore).toBe(refused.length);
  });

  it('serverShutdown: warns every connection, then closes it', async () => {
    const api = await connect();
    expect(sandbox.userDataConnections.shutdown(200)).toBeGreaterThanOrEqual(1);
    const warning = await api.next((m) => m.event?.e === 'serverShutdown');
    expect(typeof warning.event.E).toBe('number');
    expect((await api.closed).code).toBe(1001);
  });

  it('closes a connection when its life ends, and pings it meanwhile', async () => {
    sandbox.userDataConnections.setLimits({ connectionLifeMs: 1500, pingIntervalMs: 300 });
    const api = await connect();
    let pings = 0;
    api.ws.on('ping', () => {
      pings++;
    });
    const { code } = await api.closed;
    expect(code).toBe(1000);
    expect(pings).toBeGreaterThanOrEqual(2);
  });

  it('drops a connection that does not answer pings', async () => {
    sandbox.userDataConnections.setLimits({ pingIntervalMs: 100, pongTimeoutMs: 300 });
    const api = await connect();
    // ws answers pings by itself: stop it the way a frozen client would.
    (api.ws as unknown as { pong: () => void }).pong = () => undefined;
    const { code } = await api.closed;
    expect(code).toBe(1006);
  });
});
