import { randomInt } from 'node:crypto';
import { bybit } from '@gridbot/venues';
import type { Decimal } from 'decimal.js';
import type { FastifyInstance } from 'fastify';
import { spoilOrderAnswer } from '../dialect-faults';
import type { Market } from '../markets';
import type { OrderRequest, SandboxOrder } from '../matching-engine';
import { Dec, isMultipleOf } from '../money';
import type { SandboxExchange } from '../sandbox-exchange';
import { bybitError } from './bybit-error';
import type { BybitFaults } from './bybit-faults';
import { bybitMarket, spotOnly } from './bybit-market-routes';
import { resting } from './bybit-order-json';
import { type BybitParams, bybitAuthenticate } from './bybit-request';

/**
 * Without an orderLinkId, Bybit gives a spot order a numeric one of its own (ccxt's recorded
 * answers: 19 digits, like the orderId).
 */
const systemLinkId = (): string =>
  `1${String(randomInt(1e9)).padStart(9, '0')}${String(randomInt(1e9)).padStart(9, '0')}`;

const decimalParam = (params: BybitParams, name: string): Decimal | undefined => {
  const raw = params.get(name);
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+(\.\d+)?$/.test(raw)) throw bybitError('10001');
  const value = new Dec(raw);
  if (value.lte(0)) throw bybitError('10001');
  return value;
};

/**
 * A quantity in the base coin (lotSizeFilter): on the basePrecision grid (170137), at least
 * minOrderQty (170136), at most the maximum (170124). docs/venues/bybit.md#filters
 */
const checkQty = (market: Market, qty: Decimal): void => {
  if (!isMultipleOf(qty, market.stepSize)) throw bybitError('170137');
  if (qty.lt(market.minQty)) throw bybitError('170136');
  if (qty.gt(market.maxQty)) throw bybitError('170124');
};

/** A limit price on the tick grid (170134), within the market's range (170133, 170132). */
const checkPrice = (market: Market, price: Decimal): void => {
  if (!isMultipleOf(price, market.tickSize)) throw bybitError('170134');
  if (price.lt(market.minPrice)) throw bybitError('170133');
  if (price.gt(market.maxPrice)) throw bybitError('170132');
};

/** Order value at least minOrderAmt (170140). docs/venues/bybit.md#filters */
const checkValue = (market: Market, value: Decimal): void => {
  if (value.lt(market.minNotional)) throw bybitError('170140');
};

/** The account's order named by `orderId` (wins when both are given) or `orderLinkId`. docs/venues/bybit.md#client-order-ids */
export const findOrder = (
  exchange: SandboxExchange,
  accountId: number,
  params: BybitParams,
  symbol?: string,
): SandboxOrder | undefined => {
  const orderId = params.get('orderId');
  const linkId = params.get('orderLinkId');
  const own = exchange.engine.allOrders(accountId, symbol);
  if (orderId) return own.find((o) => String(o.orderId) === orderId);
  if (linkId) return own.findLast((o) => o.clientOrderId === linkId);
  return undefined;
};

/** Bybit's signed v5 order endpoints, category spot (docs/venues/bybit.md#endpoints). */
export const bybitOrderRoutes = (
  app: FastifyInstance,
  exchange: SandboxExchange,
  faults: BybitFaults,
): void => {
  app.post('/v5/order/create', async (request, reply) => {
    const { key, params } = bybitAuthenticate(exchange, request, 'trade');
    spotOnly(params);
    const { market } = bybitMarket(exchange, params.get('symbol'));
    const sideText = params.get('side');
    if (sideText !== 'Buy' && sideText !== 'Sell') throw bybitError('10001');
    const side = sideText === 'Buy' ? 'BUY' : 'SELL';
    const orderType = params.get('orderType');
    if (orderType !== 'Limit' && orderType !== 'Market') throw bybitError('10001');
    const qty = decimalParam(params, 'qty');
    if (!qty) throw bybitError('10001');

    // create-order.mdx orderLinkId: ≤ 36 of [A-Za-z0-9_-], never reused, even once the first order
    // has ended (uniqueAmong 'all'). docs/venues/bybit.md#client-order-ids
    const given = params.get('orderLinkId');
    if (given !== undefined && given !== '' && !bybit.clientOrderId.pattern.test(given))
      throw bybitError('10001');
    const orderLinkId = given || systemLinkId();
    const own = exchange.engine.allOrders(key.accountId);
    const taken =
      bybit.clientOrderId.uniqueAmong === 'all'
        ? own.some((o) => o.clientOrderId === orderLinkId)
        : own.some((o) => resting(o) && o.clientOrderId === orderLinkId);
    if (taken) throw bybitError('170141');

    // A market that does not trade: not open yet (170151) or closed to API trading (170157).
    // docs/venues/bybit.md#errors
    if (market.status !== 'TRADING') throw bybitError(market.status === 'PRE_TRADING' ? '170151' : '170157');

    const state = exchange.market(market.symbol);
    let order: OrderRequest;
    if (orderType === 'Limit') {
      const price = decimalParam(params, 'price');
      if (!price) throw bybitError('10001');
      const tif = params.get('timeInForce') ?? 'GTC';
      if (!['GTC', 'IOC', 'FOK', 'PostOnly'].includes(tif)) throw bybitError('10001');
      checkPrice(market, price);
      checkQty(market, qty);
      checkValue(market, price.mul(qty));
      order =
        tif === 'PostOnly'
          ? { side, type: 'LIMIT_MAKER', clientOrderId: orderLinkId, price, quantity: qty }
          : {
              side,
              type: 'LIMIT',
              clientOrderId: orderLinkId,
              timeInForce: tif as 'GTC' | 'IOC' | 'FOK',
              price,
              quantity: qty,
            };
    } else {
      // docs/venues/bybit.md#filters: a spot market buy's qty is in the quote coin unless
      // marketUnit=baseCoin; a sell's always in the base coin.
      const unit = params.get('marketUnit') ?? (side === 'BUY' ? 'quoteCoin' : 'baseCoin');
      if (unit !== 'quoteCoin' && unit !== 'baseCoin') throw bybitError('10001');
      if (unit === 'quoteCoin' && side === 'BUY') {
        checkValue(market, qty);
        order = { side, type: 'MARKET', clientOrderId: orderLinkId, quoteOrderQty: qty };
      } else {
        checkQty(market, qty);
        checkValue(market, qty.mul(state.price));
        order = { side, type: 'MARKET', clientOrderId: orderLinkId, quantity: qty };
      }
    }
    const { order: placed } = exchange.placeOrder(key.accountId, market.symbol, order);
    // Faults strike after the order is placed: it exists, only its answer goes wrong (bybit-faults.ts).
    const spoiled = await spoilOrderAnswer(request, reply, faults.takeOrderFault(), () =>
      bybitError('10000'),
    );
    if (spoiled) return spoiled;
    return { orderId: String(placed.orderId), orderLinkId: placed.clientOrderId };
  });

  // cancel-order.mdx: by orderId or orderLinkId; an order that has ended answers why (170139 filled,
  // 170142 cancelled), one never seen 170213. docs/venues/bybit.md#errors
  app.post('/v5/order/cancel', async (request) => {
    const { key, params } = bybitAuthenticate(exchange, request, 'trade');
    spotOnly(params);
    const { market } = bybitMarket(exchange, params.get('symbol'));
    if (!params.get('orderId') && !params.get('orderLinkId')) throw bybitError('10001');
    const order = findOrder(exchange, key.accountId, params, market.symbol);
    if (!order) throw bybitError('170213');
    if (order.status === 'FILLED') throw bybitError('170139');
    if (!resting(order)) throw bybitError('170142');
    exchange.engine.cancel(key.accountId, market, { orderId: order.orderId });
    return { orderId: String(order.orderId), orderLinkId: order.clientOrderId };
  });
};
