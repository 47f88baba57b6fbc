import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binanceRequestWeight, VENUES } from '../src';

const root = resolve(import.meta.dirname, '../../..');

/** The `#anchor`s a markdown page defines: its headings, slugged as GitHub does. */
const anchorsOf = (file: string): Set<string> =>
  new Set(
    readFileSync(resolve(root, file), 'utf8')
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) =>
        line
          .replace(/^#+ /, '')
          .trim()
          .toLowerCase()
          .replace(/[^\p{L}\p{N} -]/gu, '')
          .replace(/ /g, '-'),
      ),
  );

const docsOf = (value: unknown): string[] => {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === 'doc' && typeof inner === 'string' ? [inner] : docsOf(inner),
  );
};

describe.each(Object.values(VENUES))('venue table $id', (spec) => {
  it('cites a section of docs/venues that exists for every rule', () => {
    const docs = docsOf(spec);
    expect(docs.length).toBeGreaterThan(0);
    for (const doc of docs) {
      const [file, anchor] = doc.split('#');
      expect(existsSync(resolve(root, file!)), file).toBe(true);
      expect(anchorsOf(file!).has(anchor!), doc).toBe(true);
    }
  });

  it('has pools with positive limits and unique ids', () => {
    const ids = spec.pools.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const pool of spec.pools) {
      expect(pool.limit).toBeGreaterThan(0);
      expect(pool.windowMs).toBeGreaterThan(0);
    }
  });

  it('costs every request only in pools it defines', () => {
    const ids = new Set(spec.pools.map((p) => p.id));
    const cost = spec.requestCost({ method: 'POST', path: '/api/v3/order', params: new URLSearchParams() });
    for (const pool of Object.keys(cost)) expect(ids.has(pool), pool).toBe(true);
  });
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
