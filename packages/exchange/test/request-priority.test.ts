import { describe, expect, it } from 'vitest';
import { priorityOfRequest } from '../src/index';

const request = (method: string, path: string, params: Record<string, string> = {}, body?: unknown) => ({
  method,
  path,
  params: new URLSearchParams(params),
  ...(body === undefined ? {} : { body }),
});

/** docs/grid.md#request-budget: cancels and sells first, a buy never above normal, reads at the work's. */
describe('the priority of a request on each venue', () => {
  it.each([
    ['binance', request('DELETE', '/api/v3/order'), request('POST', '/api/v3/order', { side: 'SELL' })],
    ['bybit', request('POST', '/v5/order/cancel'), request('POST', '/v5/order/create', { side: 'Sell' })],
    [
      'okx',
      request('POST', '/api/v5/trade/cancel-order'),
      request('POST', '/api/v5/trade/batch-orders', {}, [{ instId: 'BTC-USDT', side: 'sell' }]),
    ],
  ])('%s: a cancel and a sell are high, whatever the work', (_venue, cancel, sell) => {
    expect(priorityOfRequest(cancel, 'low')).toBe('high');
    expect(priorityOfRequest(sell, 'low')).toBe('high');
  });

  it.each([
    ['binance', request('POST', '/api/v3/order', { side: 'BUY' }), request('GET', '/api/v3/order')],
    ['bybit', request('POST', '/v5/order/create', { side: 'Buy' }), request('GET', '/v5/order/realtime')],
    ['okx', request('POST', '/api/v5/trade/order', { side: 'buy' }), request('GET', '/api/v5/trade/order')],
  ])('%s: a buy is at most normal, a read takes the work priority', (_venue, buy, read) => {
    expect(priorityOfRequest(buy, 'high')).toBe('normal');
    expect(priorityOfRequest(buy, 'low')).toBe('low');
    expect(priorityOfRequest(read, 'low')).toBe('low');
    expect(priorityOfRequest(read, 'high')).toBe('high');
  });
});
