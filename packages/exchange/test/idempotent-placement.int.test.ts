import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientOrderIdFor,
  createExchangeClient,
  type ExchangeClient,
  type PlaceOrderInput,
} from '../src/index';
import { type SandboxProcess, startSandboxProcess } from './support/sandbox-process';

let sandbox: SandboxProcess;

/** Short timeout and recvWindow so that an unknown outcome settles in about two seconds. */
const clientFor = (keys: { apiKey: string; secret: string }): ExchangeClient =>
  createExchangeClient({
    exchange: 'binance',
    mode: 'sandbox',
    sandboxUrl: sandbox.url,
    ...keys,
    timeoutMs: 1000,
    recvWindowMs: 1000,
  });

const trader = async () => {
  const keys = await sandbox.createAccount({ balances: { USDT: '1000' } });
  return { keys, client: clientFor(keys) };
};

const restingBuy = (clientOrderId: string): PlaceOrderInput => ({
  symbol: 'BTC/USDT',
  side: 'buy',
  type: 'limit',
  price: '50000',
  amount: '0.001',
  clientOrderId,
});

const ordersWithId = async (apiKey: string, clientOrderId: string) =>
  (await sandbox.orders(apiKey)).filter((o) => o.clientOrderId === clientOrderId);

beforeAll(async () => {
  sandbox = await startSandboxProcess();
  // Placement is under test, not depth: a crossed order fills whole in one trade.
  await sandbox.setLiquidity('BTCUSDT', 'infinite');
  await sandbox.setPrice('BTCUSDT', '60000');
});
afterAll(async () => sandbox?.stop());

describe('idempotent placement', () => {
  it('places an order once however often it is asked', async () => {
    const { keys, client } = await trader();
    const id = clientOrderIdFor({ coinBotId: 'bot-1', lotSeq: 2, side: 'buy', attempt: 0 });
    const first = await client.placeOrder(restingBuy(id));
    const second = await client.placeOrder(restingBuy(id));
    expect([first.existing, second.existing]).toEqual([false, true]);
    expect(second.order.id).toBe(first.order.id);
    expect(await ordersWithId(keys.apiKey, id)).toHaveLength(1);
  });

  it('sends a fresh id with no look-up first: one request of weight 1 instead of 11', async () => {
    const { keys, client } = await trader();
    await client.loadMarkets();
    const since = Date.now();
    const id = clientOrderIdFor({ coinBotId: 'bot-fresh', lotSeq: 1, side: 'buy', attempt: 1 });
    const placed = await client.placeOrder({ ...restingBuy(id), fresh: true });
    expect(placed.existing).toBe(false);
    const log = (await (await fetch(`${sandbox.url}/_sandbox/requests?since=${since}`)).json()) as {
      requests: Array<{ method: string; path: string; weight: number }>;
    };
    const sent = log.requests.filter((r) => r.path.startsWith('/api/v3/'));
    expect(sent.map((r) => `${r.method} ${r.path} ${r.weight}`)).toEqual(['POST /api/v3/order 1']);
    expect(await ordersWithId(keys.apiKey, id)).toHaveLength(1);
  });

  it('does not buy twice when a filled market order is asked for again (a crash before saving it)', async () => {
    const { keys, client } = await trader();
    const entry: PlaceOrderInput = {
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      quoteAmount: '100',
      clientOrderId: 'entry-crash',
    };
    await client.placeOrder(entry);
    const again = await client.placeOrder(entry);
    expect(again).toMatchObject({ existing: true, order: { status: 'closed' } });
    expect(await ordersWithId(keys.apiKey, 'entry-crash')).toHaveLength(1);
    expect((await sandbox.balances(keys.apiKey)).USDT!.free).toBe('900.40000000');
  });

  it.each([
    ['a dropped connection', { kind: 'drop' as const }],
    ['an answer later than the timeout', { kind: 'delay' as const, delayMs: 2500 }],
    ["Binance's -1007 execution status unknown", { kind: 'unknown' as const }],
  ])('looks the order up after %s and returns it without placing it again', async (_name, fault) => {
    const { keys, client } = await trader();
    const id = `fault-${fault.kind}`;
    await sandbox.failNextOrder(fault);
    const { order, existing } = await client.placeOrder(restingBuy(id));
    expect(existing).toBe(false);
    expect(order).toMatchObject({ clientOrderId: id, status: 'open' });
    expect(await ordersWithId(keys.apiKey, id)).toHaveLength(1);
  });

  it('does not double a market buy whose answer was lost', async () => {
    const { keys, client } = await trader();
    await sandbox.failNextOrder({ kind: 'drop' });
    const { order } = await client.placeOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      quoteAmount: '100',
      clientOrderId: 'entry-drop',
    });
    expect(order.status).toBe('closed');
    expect(await sandbox.orders(keys.apiKey)).toHaveLength(1);
    expect((await sandbox.balances(keys.apiKey)).USDT!.free).toBe('900.40000000');
  });

  it('resolves a "Duplicate order sent." race to the order that holds the id', async () => {
    const { keys } = await trader();
    const [a, b] = [clientFor(keys), clientFor(keys)];
    const results = await Promise.all([a.placeOrder(restingBuy('raced')), b.placeOrder(restingBuy('raced'))]);
    expect(results.map((r) => r.existing).sort()).toEqual([false, true]);
    expect(results[0]!.order.id).toBe(results[1]!.order.id);
    expect(await ordersWithId(keys.apiKey, 'raced')).toHaveLength(1);
  });
});

describe('idempotent cancel', () => {
  it('cancels once; cancelling again returns the cancelled order, not an error', async () => {
    const { keys, client } = await trader();
    await client.placeOrder(restingBuy('to-cancel'));
    const first = await client.cancelOrder('BTC/USDT', { clientOrderId: 'to-cancel' });
    const second = await client.cancelOrder('BTC/USDT', { clientOrderId: 'to-cancel' });
    expect([first?.status, second?.status]).toEqual(['canceled', 'canceled']);
    expect(first?.clientOrderId).toBe('to-cancel');
    expect((await sandbox.balances(keys.apiKey)).USDT).toEqual({
      free: '1000.00000000',
      locked: '0.00000000',
    });
  });

  it('answers null for an order the exchange never had', async () => {
    const { client } = await trader();
    expect(await client.cancelOrder('BTC/USDT', { clientOrderId: 'never-placed' })).toBeNull();
    expect(await client.cancelOrder('BTC/USDT', { id: '987654' })).toBeNull();
  });

  it('returns a filled order as filled instead of failing', async () => {
    const { client } = await trader();
    await client.placeOrder(restingBuy('filled-first'));
    await sandbox.setPrice('BTCUSDT', '49000');
    await sandbox.setPrice('BTCUSDT', '60000');
    const result = await client.cancelOrder('BTC/USDT', { clientOrderId: 'filled-first' });
    expect(result?.status).toBe('closed');
    expect(result?.filled.toFixed()).toBe('0.001');
  });
});
