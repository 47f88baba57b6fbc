import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createExchangeClient,
  createMemoryConnectionLimiter,
  createUserDataStreams,
  type ExchangeClient,
  type ExchangeOrder,
  type UserDataStreams,
  type UserDataStreamsLog,
  type UserDataStreamsOptions,
} from '../src/index';
import { type SandboxProcess, startSandboxProcess } from './support/sandbox-process';

let sandbox: SandboxProcess;
const cleanups: (() => Promise<void>)[] = [];

const waitFor = async (check: () => Promise<boolean> | boolean, timeoutMs = 20_000) => {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out: ${check.toString().slice(0, 200)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** One process's user data connections to the sandbox (a worker's, in production). */
const muxFor = (
  options: Partial<UserDataStreamsOptions> = {},
  log: UserDataStreamsLog[] = [],
): UserDataStreams => {
  const mux = createUserDataStreams({
    log: (entry) => log.push(entry),
    url: `${sandbox.url.replace(/^http/, 'ws')}/ws-api/v3`,
    limiter: createMemoryConnectionLimiter({ attempts: 300, windowMs: 300_000 }),
    minBackoffMs: 100,
    maxBackoffMs: 1000,
    ...options,
  });
  cleanups.push(() => mux.close());
  return mux;
};

type Followed = {
  client: ExchangeClient;
  apiKey: string;
  updates: ExchangeOrder[];
  subscribed: { resumed: boolean }[];
  until: (match: (o: ExchangeOrder) => boolean) => Promise<void>;
};

/** `n` sandbox accounts, each following its order updates through `mux`. */
const followAccounts = async (mux: UserDataStreams, n: number): Promise<Followed[]> => {
  const keys = await Promise.all(
    Array.from({ length: n }, () => sandbox.createAccount({ balances: { USDT: '100' } })),
  );
  return keys.map((k) => {
    const client = createExchangeClient({
      exchange: 'binance',
      mode: 'sandbox',
      sandboxUrl: sandbox.url,
      ...k,
      timeoutMs: 5000,
      userDataStreams: () => mux,
    });
    const followed: Followed = {
      client,
      apiKey: k.apiKey,
      updates: [],
      subscribed: [],
      until: (match) => waitFor(() => followed.updates.some(match)),
    };
    cleanups.push(
      client.streamOrderUpdates({
        onUpdate: (order) => followed.updates.push(order),
        onSubscribed: (info) => followed.subscribed.push(info),
      }),
    );
    return followed;
  });
};

const buy = (f: Followed, price: string, tag: string) =>
  f.client.placeOrder({
    symbol: 'XRP/USDT',
    side: 'buy',
    type: 'limit',
    price,
    amount: '20',
    clientOrderId: `${tag}${randomBytes(4).toString('hex')}`,
  });

const filled = (f: Followed, clientOrderId: string) =>
  f.until((o) => o.clientOrderId === clientOrderId && o.status === 'closed');

const connections = async () => (await sandbox.userData.connections()).connections;

beforeAll(async () => {
  sandbox = await startSandboxProcess();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await waitFor(async () => (await connections()).length === 0);
});
afterAll(async () => sandbox?.stop());

describe('user data streams: many accounts per WebSocket API connection (sandbox over WS)', {
  timeout: 60_000,
}, () => {
  it('carries 12 accounts on one connection (12 subscriptions) and routes every fill to its own account', async () => {
    const before = (await sandbox.userData.connections()).accepted;
    const mux = muxFor();
    const accounts = await followAccounts(mux, 12);
    await waitFor(() => accounts.every((a) => a.subscribed.length === 1));

    const open = await connections();
    expect(open).toHaveLength(1);
    expect(open[0]!.subscriptions).toHaveLength(12);
    expect((await sandbox.userData.connections()).accepted - before).toBe(1);

    await sandbox.setPrice('XRPUSDT', '0.6');
    const orders = await Promise.all(accounts.map((a) => buy(a, '0.5', 'mux')));
    await sandbox.setPrice('XRPUSDT', '0.49');
    await Promise.all(accounts.map((a, i) => filled(a, orders[i]!.order.clientOrderId!)));
    accounts.forEach((a, i) => {
      const own = orders[i]!.order.clientOrderId;
      expect(a.updates.every((o) => o.clientOrderId === own)).toBe(true);
      expect(a.subscribed).toEqual([{ resumed: false }]);
    });
  });

  it('fills a connection up to its configured maximum before opening the next', async () => {
    const mux = muxFor({ maxSubscriptionsPerConnection: 5 });
    const accounts = await followAccounts(mux, 12);
    await waitFor(() => accounts.every((a) => a.subscribed.length === 1));
    const open = await connections();
    expect(open.map((c) => c.subscriptions.length).sort()).toEqual([2, 5, 5]);
    expect(
      mux
        .connections()
        .map((c) => c.subscriptions)
        .sort(),
    ).toEqual([2, 5, 5]);
  });

  it('serverShutdown: subscribes every account on a new connection before the old one closes, and loses no fill', async () => {
    const log: UserDataStreamsLog[] = [];
    const mux = muxFor({}, log);
    const accounts = await followAccounts(mux, 6);
    await waitFor(() => accounts.every((a) => a.subscribed.length === 1));
    const [old] = await connections();
    await sandbox.setPrice('XRPUSDT', '0.6');
    const first = await Promise.all(accounts.map((a) => buy(a, '0.5', 'pre')));
    const second = await Promise.all(accounts.map((a) => buy(a, '0.45', 'post')));

    // The server warns, then closes 3 s later; a fill lands right after the warning.
    expect(await sandbox.userData.serverShutdown(3000)).toBe(1);
    await sandbox.setPrice('XRPUSDT', '0.49');
    // Make-before-break: the new connection carries every account while the old one is still open.
    await waitFor(async () => {
      const open = await connections();
      return open.some((c) => c.id !== old!.id && c.subscriptions.length === 6);
    });
    await waitFor(async () => (await connections()).every((c) => c.id !== old!.id));
    await sandbox.setPrice('XRPUSDT', '0.44');

    await Promise.all(accounts.map((a, i) => filled(a, first[i]!.order.clientOrderId!)));
    await Promise.all(accounts.map((a, i) => filled(a, second[i]!.order.clientOrderId!)));
    // Nothing was missed, so nothing is reported as resumed (no catch-up reconciles).
    for (const a of accounts) expect(a.subscribed).toEqual([{ resumed: false }]);
    // The client closed the old connection itself, once it carried no account, before the server would.
    expect(log.map((e) => `${e.event} ${e.connection ?? ''} ${e.reason ?? ''}`.trim())).toEqual([
      'connected 1',
      'retiring 1 serverShutdown',
      'connected 2',
      'closed 1 replaced',
    ]);
  });

  it('the end of a connection life is handled the same way: replaced before the server cuts it', async () => {
    await sandbox.userData.setLimits({ connectionLifeMs: 6000 });
    cleanups.push(() => sandbox.userData.setLimits({ connectionLifeMs: 86_400_000 }));
    const log: UserDataStreamsLog[] = [];
    const mux = muxFor({ connectionLifeMs: 6000, renewBeforeMs: 4000 }, log);
    const accounts = await followAccounts(mux, 4);
    await waitFor(() => accounts.every((a) => a.subscribed.length === 1));
    const [old] = await connections();
    await sandbox.setPrice('XRPUSDT', '0.6');
    const orders = await Promise.all(accounts.map((a) => buy(a, '0.5', 'life')));

    // Renewed 2–4 s into its 6 s life: the new connection carries every account before the old one ends.
    await waitFor(async () =>
      (await connections()).some((c) => c.id !== old!.id && c.subscriptions.length === 4),
    );
    await waitFor(async () => (await connections()).every((c) => c.id !== old!.id));
    await sandbox.setPrice('XRPUSDT', '0.49');
    await Promise.all(accounts.map((a, i) => filled(a, orders[i]!.order.clientOrderId!)));
    for (const a of accounts) expect(a.subscribed).toEqual([{ resumed: false }]);
    expect(log.map((e) => `${e.event} ${e.connection ?? ''} ${e.reason ?? ''}`.trim())).toEqual([
      'connected 1',
      'retiring 1 end of life',
      'connected 2',
      'closed 1 replaced',
    ]);
  });

  it('a connection cut without warning: its accounts subscribe again on a new one and say they resumed', async () => {
    const mux = muxFor();
    const accounts = await followAccounts(mux, 3);
    await waitFor(() => accounts.every((a) => a.subscribed.length === 1));
    expect(await sandbox.userData.drop()).toBe(1);
    await waitFor(() => accounts.every((a) => a.subscribed.length === 2));
    for (const a of accounts) expect(a.subscribed).toEqual([{ resumed: false }, { resumed: true }]);
    expect((await connections())[0]!.subscriptions).toHaveLength(3);

    await sandbox.setPrice('XRPUSDT', '0.6');
    const orders = await Promise.all(accounts.map((a) => buy(a, '0.5', 'cut')));
    await sandbox.setPrice('XRPUSDT', '0.49');
    await Promise.all(accounts.map((a, i) => filled(a, orders[i]!.order.clientOrderId!)));
  });

  it('a subscription carried out whose answer was lost: the account subscribes on another connection, not again on that one (-2035)', async () => {
    const lose = await fetch(`${sandbox.url}/_sandbox/faults/lost-subscribe-answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 1 }),
    });
    expect(lose.status).toBe(200);
    const log: UserDataStreamsLog[] = [];
    const mux = muxFor({ connection: { requestTimeoutMs: 800 }, idleCloseMs: 300 }, log);
    const [account] = await followAccounts(mux, 1);
    // On the first connection the account is subscribed under an id the client never learnt;
    // asking there again would be refused -2035 for the connection's whole life.
    await waitFor(() => account!.subscribed.length === 1);
    expect(account!.subscribed).toEqual([{ resumed: false }]);
    // The first connection, carrying only the orphan subscription, is closed once idle.
    await waitFor(async () => (await connections()).length === 1);
    expect((await connections())[0]!.subscriptions).toHaveLength(1);
    expect(log.filter((entry) => entry.event === 'connected')).toHaveLength(2);

    await sandbox.setPrice('XRPUSDT', '0.6');
    const order = await buy(account!, '0.5', 'lost');
    await sandbox.setPrice('XRPUSDT', '0.49');
    await filled(account!, order.order.clientOrderId!);
    expect(
      account!.updates.filter((o) => o.clientOrderId === order.order.clientOrderId && o.status === 'closed'),
    ).toHaveLength(1);
  });
});
