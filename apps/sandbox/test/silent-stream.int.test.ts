import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type SandboxExchangeHandle, startSandboxExchange } from '../src/index';
import { FIXED_BTC_USDT } from './support/markets';

/**
 * The silent-stream fault on each dialect's private stream, over raw WebSocket frames: the
 * connection stays open and the server says nothing — no answer to a JSON ping, no pong to a ping
 * frame, no ping of its own — until the fault is lifted (stream-silence.ts). The engine's side,
 * that a silent stream is declared dead and resumed, is packages/exchange venue-conformance.int.test.ts.
 */
let sandbox: SandboxExchangeHandle;

beforeAll(async () => {
  sandbox = await startSandboxExchange({
    markets: [FIXED_BTC_USDT],
    // Binance's server pings every 200 ms here, so its silence shows in a short wait.
    userDataLimits: { pingIntervalMs: 200 },
  });
});
afterAll(async () => sandbox?.close());

type Keys = { apiKey: string; secret: string; passphrase: string };

/** A raw connection that counts what it hears: text frames, ping and pong frames. */
const connect = async (url: string) => {
  const ws = new WebSocket(url);
  const heard = { texts: [] as string[], pings: 0, pongs: 0 };
  ws.on('message', (data) => heard.texts.push(data.toString()));
  ws.on('ping', () => heard.pings++);
  ws.on('pong', () => heard.pongs++);
  await once(ws, 'open');
  const until = async (check: () => boolean, what: string) => {
    const deadline = Date.now() + 5000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`no ${what}; heard ${JSON.stringify(heard)}`);
      await sleep(10);
    }
  };
  return { ws, heard, until };
};

type Dialect = {
  name: string;
  url: () => string;
  /** The frames that log in and subscribe to the account's orders; `done` recognises the last answer. */
  login: (keys: Keys) => { frames: string[]; done: (text: string) => boolean };
  /** The venue's JSON heartbeat and its answer. */
  ping: string;
  pong: (text: string) => boolean;
  silence: (apiKey?: string) => Promise<Response>;
  lift: () => Promise<Response>;
};

const post = (url: string, body?: object) =>
  fetch(url, {
    method: 'POST',
    headers: body ? { 'content-type': 'application/json' } : {},
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

const DIALECTS: Dialect[] = [
  {
    name: 'binance',
    url: () => `${sandbox.wsUrl}/ws-api/v3`,
    login: ({ apiKey, secret }) => {
      const params: Record<string, string> = { apiKey, timestamp: String(Date.now()) };
      const payload = Object.keys(params)
        .sort()
        .map((k) => `${k}=${params[k]}`)
        .join('&');
      const signature = createHmac('sha256', secret).update(payload).digest('hex');
      return {
        frames: [
          JSON.stringify({
            id: 1,
            method: 'userDataStream.subscribe.signature',
            params: { ...params, signature },
          }),
        ],
        done: (text) => text.includes('"subscriptionId"') && text.includes('"id":1'),
      };
    },
    ping: JSON.stringify({ id: 2, method: 'ping' }),
    pong: (text) => text.includes('"id":2'),
    silence: (apiKey) => post(`${sandbox.url}/_sandbox/faults/silent-stream`, apiKey ? { apiKey } : {}),
    lift: () => post(`${sandbox.url}/_sandbox/faults/silent-stream/lift`),
  },
  {
    name: 'bybit',
    url: () => `${sandbox.bybitUrl.replace(/^http/, 'ws')}/v5/private`,
    login: ({ apiKey, secret }) => {
      const expires = Date.now() + 10_000;
      const signature = createHmac('sha256', secret).update(`GET/realtime${expires}`).digest('hex');
      return {
        frames: [
          JSON.stringify({ op: 'auth', args: [apiKey, expires, signature] }),
          JSON.stringify({ op: 'subscribe', args: ['order'] }),
        ],
        done: (text) => text.includes('"op":"subscribe"') && text.includes('"success":true'),
      };
    },
    ping: JSON.stringify({ op: 'ping' }),
    pong: (text) => text.includes('"op":"pong"'),
    silence: (apiKey) =>
      post(`${sandbox.bybitUrl}/_sandbox/bybit/faults/silent-stream`, apiKey ? { apiKey } : {}),
    lift: () => post(`${sandbox.bybitUrl}/_sandbox/bybit/faults/reset`),
  },
  {
    name: 'okx',
    url: () => `${sandbox.okxUrl.replace(/^http/, 'ws')}/ws/v5/private`,
    login: ({ apiKey, secret, passphrase }) => {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const sign = createHmac('sha256', secret).update(`${timestamp}GET/users/self/verify`).digest('base64');
      return {
        frames: [
          JSON.stringify({ op: 'login', args: [{ apiKey, passphrase, timestamp, sign }] }),
          JSON.stringify({ op: 'subscribe', args: [{ channel: 'orders', instType: 'SPOT' }] }),
        ],
        done: (text) => text.includes('"event":"subscribe"'),
      };
    },
    ping: 'ping',
    pong: (text) => text === 'pong',
    silence: (apiKey) =>
      post(`${sandbox.okxUrl}/_sandbox/okx/faults/silent-stream`, apiKey ? { apiKey } : {}),
    lift: () => post(`${sandbox.okxUrl}/_sandbox/okx/faults/silent-stream/lift`),
  },
];

describe.each(DIALECTS)('$name private stream, silent-stream fault', (dialect) => {
  /** A connection logged in and subscribed for a new account. */
  const subscribedConnection = async () => {
    const keys = sandbox.control.createAccount({ balances: { USDT: '1000' } });
    const c = await connect(dialect.url());
    const { frames, done } = dialect.login(keys);
    // One frame at a time: Bybit and OKX refuse a subscription before the login is answered.
    for (const frame of frames) {
      const before = c.heard.texts.length;
      c.ws.send(frame);
      await c.until(() => c.heard.texts.length > before, 'answer');
    }
    expect(c.heard.texts.some(done)).toBe(true);
    return { ...c, keys };
  };

  /** Pings both ways (a ping frame and the venue's JSON ping) and says what came back within `ms`. */
  const probe = async (c: Awaited<ReturnType<typeof connect>>, ms = 600) => {
    const before = { ...c.heard, texts: c.heard.texts.length };
    c.ws.ping();
    c.ws.send(dialect.ping);
    await sleep(ms);
    return {
      pongFrames: c.heard.pongs - before.pongs,
      answers: c.heard.texts.slice(before.texts).filter(dialect.pong).length,
      serverPings: c.heard.pings - before.pings,
    };
  };

  it("silences the account's connection — open, no pong, no answer, no ping — until lifted; another account's speaks on", async () => {
    const silenced = await subscribedConnection();
    const other = await subscribedConnection();
    expect((await probe(silenced)).answers).toBe(1);

    expect((await dialect.silence(silenced.keys.apiKey)).status).toBe(200);
    const heardBefore = silenced.heard.texts.length;
    expect(await probe(silenced)).toEqual({ pongFrames: 0, answers: 0, serverPings: 0 });
    expect(silenced.heard.texts.length).toBe(heardBefore);
    expect(silenced.ws.readyState).toBe(WebSocket.OPEN);
    // A new login of the silenced account is not answered either.
    const again = await connect(dialect.url());
    for (const frame of dialect.login(silenced.keys).frames) again.ws.send(frame);
    await sleep(400);
    expect(again.heard.texts).toEqual([]);
    // The fault is the account's: another account's connection answers as before.
    const fine = await probe(other);
    expect(fine.pongFrames).toBe(1);
    expect(fine.answers).toBe(1);

    expect((await dialect.lift()).status).toBe(200);
    const back = await probe(silenced);
    expect(back.pongFrames).toBe(1);
    expect(back.answers).toBe(1);
    // A connection opened after the lift behaves normally.
    const fresh = await subscribedConnection();
    expect((await probe(fresh)).answers).toBe(1);
    for (const c of [silenced, other, again, fresh]) c.ws.close();
  });

  it("without an apiKey silences every connection, new ones from their first frame; the client's close still completes", async () => {
    const c = await subscribedConnection();
    expect((await dialect.silence()).status).toBe(200);
    try {
      expect(await probe(c)).toEqual({ pongFrames: 0, answers: 0, serverPings: 0 });
      const fresh = await connect(dialect.url());
      expect(await probe(fresh, 300)).toEqual({ pongFrames: 0, answers: 0, serverPings: 0 });
      // The server still reads the client's close frame (it does not stop reading the socket).
      c.ws.close(1000);
      fresh.ws.close(1000);
      await Promise.all([once(c.ws, 'close'), once(fresh.ws, 'close')]);
    } finally {
      await dialect.lift();
    }
  });

  it('refuses an unknown key', async () => {
    expect((await dialect.silence('nosuchkey0000')).status).not.toBe(200);
  });
});
