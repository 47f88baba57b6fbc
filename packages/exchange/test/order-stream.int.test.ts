import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createExchangeClient,
  createMemoryConnectionLimiter,
  createUserDataStreams,
  type ExchangeClient,
  type ExchangeOrder,
  type UserDataStreams,
} from '../src/index';
import { type SandboxProcess, startSandboxProcess } from './support/sandbox-process';

let sandbox: SandboxProcess;
const stops: (() => Promise<void>)[] = [];
// The streams' connections, backing off briefly (the test restarts the exchange and waits for them).
let streams: UserDataStreams;

const clientFor = (keys: { apiKey: string; secret: string }): ExchangeClient =>
  createExchangeClient({
    exchange: 'binance',
    mode: 'sandbox',
    sandboxUrl: sandbox.url,
    ...keys,
    timeoutMs: 2000,
    userDataStreams: () => streams,
  });

/** Collects a stream's updates; `until` resolves once one matches. */
const follow = (client: ExchangeClient) => {
  const updates: ExchangeOrder[] = [];
  const waiters: { match: (o: ExchangeOrder) => boolean; done: () => void }[] = [];
  const subscribed: { resumed: boolean }[] = [];
  let onSubscribed: () => void = () => undefined;
  const stop = client.streamOrderUpdates({
    onUpdate: (order) => {
      updates.push(order);
      for (const w of waiters.filter((x) => x.match(order))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.done();
      }
    },
    onSubscribed: (info) => {
      subscribed.push(info);
      onSubscribed();
    },
  });
  stops.push(stop);
  const nextSubscription = (count: number) =>
    new Promise<void>((done) => {
      if (subscribed.length >= count) return done();
      onSubscribed = () => {
        if (subscribed.length >= count) done();
      };
    });
  const until = (match: (o: ExchangeOrder) => boolean) =>
    new Promise<void>((done) => {
      if (updates.some(match)) return done();
      waiters.push({ match, done });
    });
  return { updates, subscribed, nextSubscription, until, stop };
};

/** Listens on 127.0.0.1:`port` until the end; if another program already does, it is held all the same. */
const held: Server[] = [];
const hold = (port: number) =>
  new Promise<void>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve());
    server.listen({ host: '127.0.0.1', port }, () => {
      held.push(server);
      resolve();
    });
  });

const id = (prefix: string) => `${prefix}${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  sandbox = await startSandboxProcess();
  streams = createUserDataStreams({
    url: `${sandbox.url.replace(/^http/, 'ws')}/ws-api/v3`,
    limiter: createMemoryConnectionLimiter({ attempts: 300, windowMs: 300_000 }),
    minBackoffMs: 50,
    maxBackoffMs: 200,
  });
});
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});
afterAll(async () => {
  await streams?.close();
  await sandbox?.stop();
  await Promise.all(held.map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('order updates stream (ccxt pro watchOrders on the sandbox)', () => {
  it('reports a placed order, its fill and a cancel with our clientOrderIds and decimal amounts', async () => {
    const client = clientFor(await sandbox.createAccount({ balances: { USDT: '1000' } }));
    await sandbox.setPrice('XRPUSDT', '0.6');
    const stream = follow(client);
    await stream.nextSubscription(1);
    const buy = id('buy');
    const spare = id('spare');
    await client.placeOrder({
      symbol: 'XRP/USDT',
      side: 'buy',
      type: 'limit',
      price: '0.5',
      amount: '20',
      clientOrderId: buy,
    });
    await client.placeOrder({
      symbol: 'XRP/USDT',
      side: 'buy',
      type: 'limit',
      price: '0.4',
      amount: '20',
      clientOrderId: spare,
    });
    await sandbox.setPrice('XRPUSDT', '0.49');
    await client.cancelOrder('XRP/USDT', { clientOrderId: spare });
    await stream.until((o) => o.clientOrderId === spare && o.status === 'canceled');
    await stream.until((o) => o.clientOrderId === buy && o.status === 'closed');

    const ofBuy = stream.updates.filter((o) => o.clientOrderId === buy);
    expect(ofBuy[0]).toMatchObject({ symbol: 'XRP/USDT', side: 'buy', status: 'open' });
    const filled = ofBuy.find((o) => o.status === 'closed')!;
    expect(filled.filled.toFixed()).toBe('20');
    expect(filled.cost.toFixed()).toBe('10');
    expect(filled.price?.toFixed()).toBe('0.5');
    expect(stream.subscribed).toEqual([{ resumed: false }]);
  });

  it('only reports its own account', async () => {
    const mine = clientFor(await sandbox.createAccount({ balances: { USDT: '100' } }));
    const theirs = clientFor(await sandbox.createAccount({ balances: { USDT: '100' } }));
    await sandbox.setPrice('XRPUSDT', '0.6');
    const stream = follow(mine);
    await stream.nextSubscription(1);
    const their = id('their');
    const own = id('own');
    await theirs.placeOrder({
      symbol: 'XRP/USDT',
      side: 'buy',
      type: 'limit',
      price: '0.5',
      amount: '20',
      clientOrderId: their,
    });
    await mine.placeOrder({
      symbol: 'XRP/USDT',
      side: 'buy',
      type: 'limit',
      price: '0.5',
      amount: '20',
      clientOrderId: own,
    });
    await stream.until((o) => o.clientOrderId === own);
    expect(stream.updates.map((o) => o.clientOrderId)).not.toContain(their);
  });

  it('subscribes again after the exchange went away and came back, and says so', async () => {
    const port = Number(new URL(sandbox.url).port);
    const keys = { apiKey: `K${randomBytes(20).toString('hex')}`, secret: randomBytes(24).toString('hex') };
    await sandbox.createAccount({ ...keys, balances: { USDT: '100' } });
    const client = clientFor(keys);
    const stream = follow(client);
    await stream.nextSubscription(1);

    await sandbox.stop();
    // Only the exchange's own port is fixed on a restart: a CI run on a fresh clone failed while
    // another program held 3101, which the sandbox's TRON node wanted (support/sandbox-process.ts).
    await hold(3101);
    await hold(3102);
    sandbox = await startSandboxProcess({ port });
    await sandbox.createAccount({ ...keys, balances: { USDT: '100' } });
    await stream.nextSubscription(2);
    expect(stream.subscribed).toEqual([{ resumed: false }, { resumed: true }]);

    await sandbox.setPrice('XRPUSDT', '0.6');
    const after = id('after');
    await client.placeOrder({
      symbol: 'XRP/USDT',
      side: 'buy',
      type: 'limit',
      price: '0.5',
      amount: '20',
      clientOrderId: after,
    });
    await stream.until((o) => o.clientOrderId === after && o.status === 'open');
    // Two sandbox processes start here (`node --import tsx`, compiling the sandbox each time): on a
    // loaded CI machine that alone took most of the default 30 s.
  }, 90_000);
});
