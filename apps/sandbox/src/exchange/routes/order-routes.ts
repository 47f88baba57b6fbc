import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { binanceErrors } from '../binance-error';
import { checkTrading } from '../markets';
import type { SandboxOrder } from '../matching-engine';
import { fmt8 } from '../money';
import {
  clientOrderIdParam,
  generatedClientOrderId,
  integerParam,
  limitParam,
  newOrderParams,
  orderRefParams,
  required,
} from '../order-params';
import type { SandboxExchange } from '../sandbox-exchange';
import { authenticate } from '../signed-request';
import { canceledOrderJson, newOrderJson, queriedOrderJson } from '../wire';

const inTimeRange = (time: number, startTime?: number, endTime?: number) =>
  (startTime === undefined || time >= startTime) && (endTime === undefined || time <= endTime);

/** Binance's SIGNED order endpoints under /api/v3. */
export const orderRoutes = (app: FastifyInstance, exchange: SandboxExchange): void => {
  app.post('/api/v3/order', async (request, reply) => {
    const { key, params } = authenticate(exchange, request, 'trade');
    const symbol = required(params, 'symbol');
    const state = exchange.market(symbol);
    const { request: order, respType } = newOrderParams(params);
    const result = exchange.placeOrder(key.accountId, state.market.symbol, order);
    // Faults strike after execution: the order exists, only its answer goes missing.
    const fault = exchange.takeOrderResponseFault();
    if (fault?.kind === 'drop') {
      reply.hijack();
      request.raw.socket.destroy();
      return reply;
    }
    if (fault?.kind === 'unknown') throw binanceErrors.executionUnknown();
    if (fault?.kind === 'delay') await sleep(fault.delayMs ?? 5000);
    return newOrderJson(result.order, result.fills, respType);
  });

  // rest-api.md "Test new order": validated like a new order (parameters, filters; not the balance,
  // which the matching engine checks), never placed.
  app.post('/api/v3/order/test', async (request) => {
    const { key, params } = authenticate(exchange, request, 'trade');
    const state = exchange.market(required(params, 'symbol'));
    const { request: order } = newOrderParams(params);
    checkTrading(state.market);
    const average = state.averagePrice.over(state.market.percentPriceBySide.avgPriceMins, state.price);
    exchange.engine.check(key.accountId, state.market, order, { last: state.price, average });
    const compute = params.get('computeCommissionRates');
    if (compute !== null && compute !== 'true' && compute !== 'false') {
      throw binanceErrors.illegalChars('computeCommissionRates', 'true|false');
    }
    if (compute !== 'true') return {};
    const rate = fmt8(exchange.feeRate);
    const zero = fmt8(exchange.feeRate.mul(0));
    return {
      standardCommissionForOrder: { maker: rate, taker: rate },
      specialCommissionForOrder: { maker: zero, taker: zero },
      taxCommissionForOrder: { maker: zero, taker: zero },
      discount: {
        enabledForAccount: false,
        enabledForSymbol: true,
        discountAsset: 'BNB',
        discount: '0.25000000',
      },
    };
  });

  app.get('/api/v3/order', async (request) => {
    const { key, params } = authenticate(exchange, request, 'read');
    const state = exchange.market(required(params, 'symbol'));
    const order = exchange.engine.find(key.accountId, state.market.symbol, orderRefParams(params));
    if (!order) throw binanceErrors.orderDoesNotExist();
    return queriedOrderJson(order);
  });

  app.delete('/api/v3/order', async (request) => {
    const { key, params } = authenticate(exchange, request, 'trade');
    const state = exchange.market(required(params, 'symbol'));
    const cancelId = clientOrderIdParam(params, 'newClientOrderId') ?? generatedClientOrderId();
    const order = exchange.engine.cancel(key.accountId, state.market, orderRefParams(params), cancelId);
    return canceledOrderJson(order, cancelId);
  });

  app.delete('/api/v3/openOrders', async (request) => {
    const { key, params } = authenticate(exchange, request, 'trade');
    const state = exchange.market(required(params, 'symbol'));
    const open = exchange.engine.openOrders(key.accountId, state.market.symbol);
    if (open.length === 0) throw binanceErrors.unknownOrder();
    return open.map((o) => {
      const cancelId = generatedClientOrderId();
      return canceledOrderJson(
        exchange.engine.cancel(key.accountId, state.market, { orderId: o.orderId }, cancelId),
        cancelId,
      );
    });
  });

  app.get('/api/v3/openOrders', async (request) => {
    const { key, params } = authenticate(exchange, request, 'read');
    const symbol = params.get('symbol');
    const market = symbol ? exchange.market(symbol).market.symbol : undefined;
    return exchange.engine.openOrders(key.accountId, market).map(queriedOrderJson);
  });

  app.get('/api/v3/allOrders', async (request) => {
    const { key, params } = authenticate(exchange, request, 'read');
    const state = exchange.market(required(params, 'symbol'));
    const fromId = integerParam(params, 'orderId');
    const startTime = integerParam(params, 'startTime');
    const endTime = integerParam(params, 'endTime');
    const matching = exchange.engine
      .allOrders(key.accountId, state.market.symbol)
      .filter(
        (o: SandboxOrder) =>
          (fromId === undefined || o.orderId >= fromId) && inTimeRange(o.time, startTime, endTime),
      );
    const limit = limitParam(params);
    const picked =
      fromId !== undefined || startTime !== undefined ? matching.slice(0, limit) : matching.slice(-limit);
    return picked.map(queriedOrderJson);
  });
};
