import type { FastifyInstance, FastifyRequest } from 'fastify';

const MINUTE = 60_000;

/**
 * Binance's request weights for the endpoints the sandbox serves (anything else weighs 1). Some
 * depend on whether one symbol or every symbol is asked for.
 */
const weightOf = (request: FastifyRequest): number => {
  const path = (request.raw.url ?? '').split('?')[0] ?? '';
  const query = new URLSearchParams((request.raw.url ?? '').split('?')[1] ?? '');
  const one = query.has('symbol');
  switch (`${request.method} ${path}`) {
    case 'GET /api/v3/exchangeInfo':
    case 'GET /api/v3/account':
    case 'GET /api/v3/myTrades':
    case 'GET /api/v3/allOrders':
      return 20;
    case 'GET /api/v3/klines':
      return 2;
    case 'GET /api/v3/ticker/24hr':
      return one ? 2 : 80;
    case 'GET /api/v3/ticker/price':
    case 'GET /api/v3/ticker/bookTicker':
      return one ? 2 : 4;
    case 'GET /api/v3/openOrders':
      return one ? 6 : 80;
    case 'GET /api/v3/order':
      return 4;
    default:
      return 1;
  }
};

/** Counts per key within fixed windows of `size` ms (a new window starts from zero). */
const windowCounter = (size: number) => {
  let window = 0;
  const counts = new Map<string, number>();
  return (key: string, add: number): number => {
    const now = Math.floor(Date.now() / size);
    if (now !== window) {
      window = now;
      counts.clear();
    }
    const total = (counts.get(key) ?? 0) + add;
    counts.set(key, total);
    return total;
  };
};

/**
 * Adds Binance's usage headers to every answer: `X-MBX-USED-WEIGHT-1M`, the weight this client's IP
 * used in the current minute, and on new orders `X-MBX-ORDER-COUNT-10S` / `-1D`, the orders of
 * the API key in the current 10 seconds and day. The sandbox only reports them; it never answers
 * 429.
 */
export const reportRequestWeight = (app: FastifyInstance): void => {
  const orders10s = windowCounter(10_000);
  const orders1d = windowCounter(86_400_000);
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'POST' || !(request.raw.url ?? '').startsWith('/api/v3/order')) return;
    const key = String(request.headers['x-mbx-apikey'] ?? '');
    void reply.header('x-mbx-order-count-10s', String(orders10s(key, 1)));
    void reply.header('x-mbx-order-count-1d', String(orders1d(key, 1)));
  });
  const weight1m = windowCounter(MINUTE);
  app.addHook('onRequest', async (request, reply) => {
    const total = weight1m(request.ip, weightOf(request));
    void reply.header('x-mbx-used-weight', String(total));
    void reply.header('x-mbx-used-weight-1m', String(total));
  });
};
