import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxExchangeHandle, startSandboxExchange } from '../src/index';
import { type Credentials, ccxtBybit, signedRequest } from './bybit-support';
import { FIXED_BTC_USDT } from './support/markets';

/**
 * The Bybit dialect's order history and cursor paging (order-list.mdx, open-order.mdx,
 * execution.mdx; docs/venues/bybit.md#endpoints), judged by ccxt's bybit and by hand.
 */
let sandbox: SandboxExchangeHandle;

beforeAll(async () => {
  sandbox = await startSandboxExchange({ port: 0, bybitPort: 0, markets: [FIXED_BTC_USDT] });
});
afterAll(async () => sandbox.close());

const get = (trader: Credentials, path: string, params: Record<string, string>) =>
  signedRequest(sandbox, 'GET', path, trader, { category: 'spot', ...params });

/** Follows `nextPageCursor` to the end; each page's ids. */
const allPages = async (trader: Credentials, path: string, params: Record<string, string>, id: string) => {
  const pages: string[][] = [];
  let cursor = '';
  do {
    const { body } = await get(trader, path, { ...params, ...(cursor ? { cursor } : {}) });
    expect(body.retCode).toBe(0);
    pages.push(body.result.list.map((item) => String(item[id])));
    cursor = body.result.nextPageCursor ?? '';
  } while (cursor !== '' && pages.length < 20);
  return pages;
};

describe('order history', () => {
  it('ccxt fetches closed and canceled orders, and one order by id (realtime, then history)', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000', BTC: '0.01' } });
    const client = ccxtBybit(sandbox, trader);
    const filled = await client.createOrder('BTC/USDT', 'market', 'sell', 0.001);
    const resting = await client.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 50000, {
      clientOrderId: 'h-1',
    });
    const canceled = await client.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 51000, {
      clientOrderId: 'h-2',
    });
    await client.cancelOrder(String(canceled.id), 'BTC/USDT');

    const closed = await client.fetchClosedOrders('BTC/USDT');
    expect(closed.map((o) => o.id)).toEqual([filled.id]);
    expect(closed[0]).toMatchObject({ status: 'closed', filled: 0.001, side: 'sell', type: 'market' });
    const cancelled = await client.fetchCanceledOrders('BTC/USDT');
    expect(cancelled.map((o) => [o.id, o.status, o.clientOrderId])).toEqual([
      [canceled.id, 'canceled', 'h-2'],
    ]);
    expect(await client.fetchClosedOrder(String(filled.id), 'BTC/USDT')).toMatchObject({ status: 'closed' });

    const one = await client.fetchOrder(String(resting.id), 'BTC/USDT', { acknowledged: true });
    expect(one).toMatchObject({ id: resting.id, status: 'open', clientOrderId: 'h-1' });
    const { body } = await get(trader, '/v5/order/history', { symbol: 'BTCUSDT' });
    // Ended orders only, newest first.
    expect(body.result.list.map((o) => o.orderStatus)).toEqual(['Cancelled', 'Filled']);
  });

  it('keeps to the time window: startTime/endTime, at most 7 days apart', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '1000', BTC: '0.01' } });
    const client = ccxtBybit(sandbox, trader);
    const before = Date.now();
    await client.createOrder('BTC/USDT', 'market', 'sell', 0.001);
    const inside = await get(trader, '/v5/order/history', { startTime: String(before - 1000) });
    expect(inside.body.result.list).toHaveLength(1);
    const later = await get(trader, '/v5/order/history', { startTime: String(Date.now() + 60_000) });
    expect(later.body.result.list).toHaveLength(0);
    const earlier = await get(trader, '/v5/order/history', { endTime: String(before - 1000) });
    expect(earlier.body.result.list).toHaveLength(0);
    const tooWide = await get(trader, '/v5/order/history', {
      startTime: String(before - 8 * 86_400_000),
      endTime: String(before),
    });
    expect(tooWide.body).toMatchObject({ retCode: 10001, retMsg: 'Request parameter error' });
    const fills = await get(trader, '/v5/execution/list', {
      startTime: String(before - 8 * 86_400_000),
      endTime: String(before),
    });
    expect(fills.body.retCode).toBe(10001);
  });
});

describe('cursor paging', () => {
  let trader: Credentials;
  beforeAll(async () => {
    trader = sandbox.control.createAccount({ balances: { USDT: '10000', BTC: '1' } });
    const client = ccxtBybit(sandbox, trader);
    for (let i = 0; i < 5; i++) {
      await client.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 50000 + i, {
        clientOrderId: `p-open-${i}`,
      });
      await client.createOrder('BTC/USDT', 'market', 'sell', 0.001, undefined, {
        clientOrderId: `p-sold-${i}`,
      });
    }
  });

  it('pages open orders, ended orders and fills newest first with nextPageCursor, "" at the end', async () => {
    const open = await allPages(trader, '/v5/order/realtime', { limit: '2' }, 'orderLinkId');
    expect(open).toEqual([['p-open-4', 'p-open-3'], ['p-open-2', 'p-open-1'], ['p-open-0']]);
    const ended = await allPages(trader, '/v5/order/history', { limit: '3' }, 'orderLinkId');
    expect(ended).toEqual([
      ['p-sold-4', 'p-sold-3', 'p-sold-2'],
      ['p-sold-1', 'p-sold-0'],
    ]);
    const fills = await allPages(trader, '/v5/execution/list', { limit: '4' }, 'execId');
    expect(fills.map((p) => p.length)).toEqual([4, 1]);
    const ids = fills.flat().map(Number);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const { body } = await get(trader, '/v5/order/realtime', { limit: '2' });
    expect(body.result.nextPageCursor).toMatch(/^page_args%3D\d+%26$/);
  });

  it('refuses a limit out of range and a cursor it did not give with 10001', async () => {
    const cases: Record<string, string>[] = [{ limit: '51' }, { limit: '0' }, { cursor: 'nonsense' }];
    for (const params of cases) {
      const { body } = await get(trader, '/v5/order/realtime', params);
      expect(body.retCode, JSON.stringify(params)).toBe(10001);
    }
    const { body } = await get(trader, '/v5/execution/list', { limit: '101' });
    expect(body.retCode).toBe(10001);
  });

  it('ccxt fetchMyTrades with since and limit, and with paginate following the cursor', async () => {
    const client = ccxtBybit(sandbox, trader);
    const all = await client.fetchMyTrades('BTC/USDT');
    expect(all).toHaveLength(5);
    const since = all[2]!.timestamp!;
    const recent = await client.fetchMyTrades('BTC/USDT', since, 2);
    expect(recent).toHaveLength(2);
    expect(recent.every((t) => t.timestamp! >= since)).toBe(true);
    const paged = await client.fetchMyTrades('BTC/USDT', undefined, undefined, {
      paginate: true,
      paginationCalls: 5,
      limit: 2,
    });
    expect(new Set(paged.map((t) => t.id)).size).toBe(5);
    const closed = await client.fetchClosedOrders('BTC/USDT', undefined, undefined, {
      paginate: true,
      limit: 2,
    });
    expect(closed).toHaveLength(5);
  });
});
