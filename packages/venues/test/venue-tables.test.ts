import { describe, expect, it } from 'vitest';
import { binanceRequestWeight, VENUE_TABLES, VENUES } from '../src';
import { checkVenueTable } from './support/table-checks';

describe.each(Object.values(VENUE_TABLES))('venue table $id', (spec) => {
  checkVenueTable(spec);
});

describe('Binance request weights (rest-api.md)', () => {
  const weight = (method: string, path: string, query = '') =>
    binanceRequestWeight({ method, path, params: new URLSearchParams(query) });

  it('weighs the 24 h ticker by how many symbols it names', () => {
    expect(weight('GET', '/api/v3/ticker/24hr', 'symbol=BTCUSDT')).toBe(2);
    expect(weight('GET', '/api/v3/ticker/24hr', `symbols=${JSON.stringify(['A', 'B', 'C'])}`)).toBe(2);
    const fifty = JSON.stringify(Array.from({ length: 50 }, (_, i) => `S${i}`));
    expect(weight('GET', '/api/v3/ticker/24hr', `symbols=${fifty}`)).toBe(40);
    expect(weight('GET', '/api/v3/ticker/24hr')).toBe(80);
  });

  it('weighs open orders, trades and depth as documented', () => {
    expect(weight('GET', '/api/v3/openOrders', 'symbol=BTCUSDT')).toBe(6);
    expect(weight('GET', '/api/v3/openOrders')).toBe(80);
    expect(weight('GET', '/api/v3/myTrades', 'symbol=BTCUSDT&orderId=1')).toBe(5);
    expect(weight('GET', '/api/v3/myTrades', 'symbol=BTCUSDT')).toBe(20);
    expect(weight('GET', '/api/v3/depth', 'symbol=BTCUSDT&limit=1000')).toBe(50);
    expect(weight('POST', '/api/v3/order')).toBe(1);
  });

  it('counts a new order in both ORDERS pools, a cancel in neither', () => {
    const spec = VENUES.binance!;
    const params = new URLSearchParams();
    expect(spec.requestCost({ method: 'POST', path: '/api/v3/order', params })).toEqual({
      REQUEST_WEIGHT: 1,
      RAW_REQUESTS: 1,
      ORDERS_10S: 1,
      ORDERS_1D: 1,
    });
    expect(spec.requestCost({ method: 'DELETE', path: '/api/v3/order', params })).toEqual({
      REQUEST_WEIGHT: 1,
      RAW_REQUESTS: 1,
    });
  });
});
