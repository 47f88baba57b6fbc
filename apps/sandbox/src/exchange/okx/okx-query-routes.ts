import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxOrder } from '../matching-engine';
import type { MarketState, SandboxExchange } from '../sandbox-exchange';
import { okxError } from './okx-error';
import { instTypeParam, okxMarket, optionalInt } from './okx-market-routes';
import { fillJson, orderJson, ordTypeOf, page, resting, stateOf } from './okx-order-json';
import { findOrder } from './okx-order-routes';
import { type OkxParams, okxAuthenticate, okxParams } from './okx-request';

const DAY_MS = 86_400_000;

/** The market named by `instId`, if any (51001 for an unknown one). */
const marketOf = (exchange: SandboxExchange, params: OkxParams): MarketState | undefined => {
  const instId = params.get('instId');
  return instId ? okxMarket(exchange, instId) : undefined;
};

/** The account's read calls on orders and fills (docs/venues/okx.md#endpoints). */
export const okxQueryRoutes = (app: FastifyInstance, exchange: SandboxExchange): void => {
  const read = (request: FastifyRequest) => ({
    key: okxAuthenticate(exchange, request, 'read'),
    params: okxParams(request),
  });
  const marketBySymbol = (symbol: string) => exchange.market(symbol).market;
  const ordersJson = (accountId: number, orders: SandboxOrder[]) => {
    const trades = exchange.engine.trades(accountId);
    return orders.map((o) => orderJson(o, marketBySymbol(o.symbol), trades));
  };

  /** Filters of the order lists: ordType and state. */
  const filtered = (orders: SandboxOrder[], params: OkxParams) => {
    const ordType = params.get('ordType');
    const state = params.get('state');
    return orders.filter((o) => (!ordType || ordTypeOf(o) === ordType) && (!state || stateOf(o) === state));
  };

  // Trade › Get order details: instId and ordId or clOrdId; an order never seen answers 51603.
  app.get('/api/v5/trade/order', async (request) => {
    const { key, params } = read(request);
    if (!params.get('instId')) throw okxError('50014', 'instId');
    const { market } = okxMarket(exchange, params.get('instId'));
    const order = findOrder(exchange, key.accountId, params, market.symbol);
    if (!order) throw okxError('51603');
    return ordersJson(key.accountId, [order]);
  });

  // Trade › Get order list: the pending (live, partially_filled) orders, newest first, paged by ordId.
  app.get('/api/v5/trade/orders-pending', async (request) => {
    const { key, params } = read(request);
    if ((instTypeParam(params, false) ?? 'SPOT') !== 'SPOT') return [];
    const symbol = marketOf(exchange, params)?.market.symbol;
    const open = filtered(exchange.engine.allOrders(key.accountId, symbol).filter(resting), params);
    return ordersJson(
      key.accountId,
      page(open, (o) => o.orderId, params),
    );
  });

  // Trade › Get order history (last 7 days) and (archive) last 3 months: ended orders (filled,
  // canceled), newest first, paged by ordId; instType required.
  for (const [path, days] of [
    ['/api/v5/trade/orders-history', 7],
    ['/api/v5/trade/orders-history-archive', 92],
  ] as const) {
    app.get(path, async (request) => {
      const { key, params } = read(request);
      if (instTypeParam(params, true) !== 'SPOT') return [];
      const symbol = marketOf(exchange, params)?.market.symbol;
      const begin = optionalInt(params, 'begin') ?? exchange.now() - days * DAY_MS;
      const end = optionalInt(params, 'end');
      const ended = filtered(
        exchange.engine
          .allOrders(key.accountId, symbol)
          .filter((o) => !resting(o) && o.updateTime >= begin && (end === undefined || o.updateTime <= end)),
        params,
      );
      return ordersJson(
        key.accountId,
        page(ended, (o) => o.orderId, params),
      );
    });
  }

  // Trade › Get transaction details (last 3 days) and (last 3 months, instType required): the
  // account's fills, newest first, paged by billId, filtered by ordId and begin/end (ms).
  for (const [path, days, instTypeRequired] of [
    ['/api/v5/trade/fills', 3, false],
    ['/api/v5/trade/fills-history', 92, true],
  ] as const) {
    app.get(path, async (request) => {
      const { key, params } = read(request);
      if ((instTypeParam(params, instTypeRequired) ?? 'SPOT') !== 'SPOT') return [];
      const symbol = marketOf(exchange, params)?.market.symbol;
      const ordId = params.get('ordId');
      const begin = optionalInt(params, 'begin') ?? exchange.now() - days * DAY_MS;
      const end = optionalInt(params, 'end');
      const orders = new Map(exchange.engine.allOrders(key.accountId, symbol).map((o) => [o.orderId, o]));
      const fills = exchange.engine
        .trades(key.accountId, symbol)
        .filter(
          (t) =>
            (!ordId || String(t.orderId) === ordId) &&
            t.time >= begin &&
            (end === undefined || t.time <= end),
        );
      return page(fills, (t) => t.id, params).map((t) =>
        fillJson(t, marketBySymbol(t.symbol), orders.get(t.orderId), exchange.engine.feeRate),
      );
    });
  }
};
