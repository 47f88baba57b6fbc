import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  clientOrderIdFor,
  createExchangeClient,
  type ExchangeClient,
  ExchangeError,
  type ExchangeOrder,
} from '../src/index';
import { type SandboxProcess, startSandboxProcess } from './support/sandbox-process';

/**
 * Bybit's and OKX's private order streams through the adapter (`streamOrderUpdates`), against the
 * sandbox's dialects over WebSocket: the contract Binance's stream keeps (order-stream.int.test.ts),
 * one connection per account (docs/venues/bybit.md#user-data-stream, docs/venues/okx.md#user-data-stream).
 */
let sandbox: SandboxProcess;
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  sandbox = await startSandboxProcess();
  await sandbox.setLiquidity('ETHUSDT', 'infinite');
});
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});
afterAll(async () => sandbox?.stop());

const VENUES = [
  { venue: 'bybit', url: () => sandbox.bybitUrl, drop: '/_sandbox/bybit/stream/drop' },
  { venue: 'okx', url: () => sandbox.okxUrl, drop: '/_sandbox/okx/stream/drop' },
] as const;

/** Collects a stream's updates, subscriptions and errors; `until` resolves once an update matches. */
const follow = (client: ExchangeClient) => {
  const updates: ExchangeOrder[] = [];
  const subscribed: { resumed: boolean }[] = [];
  const errors: unknown[] = [];
  const stop = client.streamOrderUpdates({
    onUpdate: (order) => updates.push(order),
    onSubscribed: (info) => subscribed.push(info),
    onError: (error) => errors.push(error),
  });
  stops.push(stop);
  const waitFor = (check: () => boolean, what: string) =>
    vi.waitFor(
      () => {
        if (!check()) throw new Error(`still waiting for ${what}`);
      },
      { timeout: 10_000, interval: 20 },
    );
  return {
    updates,
    subscribed,
    errors,
    stop,
    subscriptions: (count: number) => waitFor(() => subscribed.length >= count, `${count} subscriptions`),
    until: (match: (o: ExchangeOrder) => boolean) => waitFor(() => updates.some(match), 'an update'),
    failed: () => waitFor(() => errors.length > 0, 'an error'),
  };
};

const idFor = (lotSeq: number) =>
  clientOrderIdFor({ coinBotId: randomUUID(), lotSeq, side: 'buy', attempt: 0 });

describe.each(VENUES)('$venue private order stream', ({ venue, url, drop }) => {
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
  /** Cuts the dialect's stream connections server-side (a dropped network); how many there were. */
  const dropStreams = async (): Promise<number> => {
    const response = await fetch(`${url()}${drop}`, { method: 'POST' });
    expect(response.status).toBe(200);
    return ((await response.json()) as { connections: number }).connections;
  };
  const restingBuy = (client: ExchangeClient, clientOrderId: string) =>
    client.placeOrder({
      symbol: 'ETH/USDT',
      side: 'buy',
      type: 'limit',
      price: '2970',
      amount: '0.05',
      clientOrderId,
    });

  it('is a capability of the venue', () => {
    expect(clientFor({ apiKey: 'k', secret: 's' }).capabilities.orderStream).toBe(true);
  });

  it('reports a resting limit buy open, then closed with its filled amount once the market fills it', async () => {
    const client = clientFor(await sandbox.createAccount({ balances: { USDT: '500' } }));
    await sandbox.setPrice('ETHUSDT', '3000');
    const stream = follow(client);
    await stream.subscriptions(1);
    const id = idFor(1);
    const placed = await restingBuy(client, id);
    await stream.until((o) => o.clientOrderId === id && o.status === 'open');
    await sandbox.setPrice('ETHUSDT', '2960');
    await stream.until((o) => o.clientOrderId === id && o.status === 'closed');

    const ofBuy = stream.updates.filter((o) => o.clientOrderId === id);
    expect(ofBuy[0]).toMatchObject({ id: placed.order.id, symbol: 'ETH/USDT', side: 'buy', status: 'open' });
    expect(ofBuy[0]?.filled.toFixed()).toBe('0');
    const filled = ofBuy.find((o) => o.status === 'closed');
    expect(filled?.filled.toFixed()).toBe('0.05');
    expect(filled?.price?.toFixed()).toBe('2970');
    // Each state once.
    expect(ofBuy.filter((o) => o.status === 'closed')).toHaveLength(1);
    expect(stream.subscribed).toEqual([{ resumed: false }]);
    expect(stream.errors).toEqual([]);
  });

  it('logs in and subscribes again after the connection dropped, says it resumed, and reports what follows', async () => {
    const client = clientFor(await sandbox.createAccount({ balances: { USDT: '500' } }));
    await sandbox.setPrice('ETHUSDT', '3000');
    const stream = follow(client);
    await stream.subscriptions(1);
    expect(await dropStreams()).toBe(1);
    await stream.subscriptions(2);
    expect(stream.subscribed).toEqual([{ resumed: false }, { resumed: true }]);

    const id = idFor(2);
    await restingBuy(client, id);
    await stream.until((o) => o.clientOrderId === id && o.status === 'open');
  });

  it('reports a refused login as an error and keeps trying', async () => {
    const keys = await sandbox.createAccount();
    const stream = follow(clientFor({ ...keys, secret: `${keys.secret.slice(0, -4)}0000` }));
    await stream.failed();
    expect(stream.errors[0]).toBeInstanceOf(ExchangeError);
    expect((stream.errors[0] as ExchangeError).code).toBe('API_KEY_INVALID');
    expect(stream.subscribed).toEqual([]);
  });

  it('stop() closes its connection and nothing more is reported', async () => {
    const client = clientFor(await sandbox.createAccount({ balances: { USDT: '500' } }));
    await sandbox.setPrice('ETHUSDT', '3000');
    const stream = follow(client);
    await stream.subscriptions(1);
    await stream.stop();
    // The venue sees no connection left (the drop finds none to cut).
    await vi.waitFor(async () => expect(await dropStreams()).toBe(0), { timeout: 5000, interval: 50 });
    const before = stream.updates.length;
    const id = idFor(3);
    await restingBuy(client, id);
    // A second stream of the same account sees the order: the first one, stopped, did not.
    const witness = follow(client);
    await witness.subscriptions(1);
    await sandbox.setPrice('ETHUSDT', '2960');
    await witness.until((o) => o.clientOrderId === id && o.status === 'closed');
    expect(stream.updates.length).toBe(before);
    expect(stream.subscribed).toEqual([{ resumed: false }]);
  });
});

describe('okx private order stream, upgrade notice', () => {
  const okxClient = (keys: { apiKey: string; secret: string; passphrase?: string }) =>
    createExchangeClient({
      exchange: 'okx',
      mode: 'sandbox',
      sandboxUrl: sandbox.okxUrl,
      apiKey: keys.apiKey,
      secret: keys.secret,
      password: keys.passphrase ?? '',
      timeoutMs: 3000,
    });

  it('reconnects at once on the 64008 notice, before OKX would close the connection, and says it resumed', async () => {
    const keys = await sandbox.createAccount({ balances: { USDT: '500' } });
    const client = okxClient(keys);
    const stream = follow(client);
    await stream.subscriptions(1);
    // The sandbox would close it a minute later, as OKX does: the client must not wait for that.
    const response = await fetch(`${sandbox.okxUrl}/_sandbox/okx/stream/upgrade-notice`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ closeAfterMs: 60_000 }),
    });
    expect(await response.json()).toEqual({ connections: 1 });
    await stream.subscriptions(2);
    expect(stream.subscribed).toEqual([{ resumed: false }, { resumed: true }]);
    expect(stream.errors).toEqual([]);
  });

  it('keeps the old connection until its successor has subscribed: a fill right after the notice is pushed, once', async () => {
    const keys = await sandbox.createAccount({ balances: { USDT: '500' } });
    const client = okxClient(keys);
    const connections = async () =>
      (
        (await (await fetch(`${sandbox.okxUrl}/_sandbox/okx/stream/connections`)).json()) as {
          connections: number;
        }
      ).connections;
    await sandbox.setPrice('ETHUSDT', '3000');
    const stream = follow(client);
    await stream.subscriptions(1);
    const id = idFor(9);
    await client.placeOrder({
      symbol: 'ETH/USDT',
      side: 'buy',
      type: 'limit',
      price: '2970',
      amount: '0.05',
      clientOrderId: id,
    });
    await stream.until((o) => o.clientOrderId === id && o.status === 'open');
    const notice = await fetch(`${sandbox.okxUrl}/_sandbox/okx/stream/upgrade-notice`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ closeAfterMs: 60_000 }),
    });
    expect(await notice.json()).toEqual({ connections: 1 });
    // At once, while the successor connects: a client that closed the old connection first would
    // miss this push (a resubscription replays nothing).
    await sandbox.setPrice('ETHUSDT', '2960');
    await stream.until((o) => o.clientOrderId === id && o.status === 'closed');
    await stream.subscriptions(2);
    // The old connection is closed by the client once the successor subscribed, not by OKX a minute later.
    await vi.waitFor(async () => expect(await connections()).toBe(1), { timeout: 5000, interval: 50 });
    expect(stream.updates.filter((o) => o.clientOrderId === id && o.status === 'closed')).toHaveLength(1);
    expect(stream.subscribed).toEqual([{ resumed: false }, { resumed: true }]);
    expect(stream.errors).toEqual([]);
  });
});
