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

/**
 * Adds Binance's `X-MBX-USED-WEIGHT-1M` header to every answer: the weight this client's IP used in
 * the current minute, as Binance counts it. The sandbox only reports it; it never answers 429.
 */
export const reportRequestWeight = (app: FastifyInstance): void => {
  let minute = 0;
  const used = new Map<string, number>();
  app.addHook('onRequest', async (request, reply) => {
    const now = Math.floor(Date.now() / MINUTE);
    if (now !== minute) {
      minute = now;
      used.clear();
    }
    const total = (used.get(request.ip) ?? 0) + weightOf(request);
    used.set(request.ip, total);
    void reply.header('x-mbx-used-weight', String(total));
    void reply.header('x-mbx-used-weight-1m', String(total));
  });
};
