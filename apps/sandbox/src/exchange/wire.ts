import type { SandboxOrder, SandboxTrade } from './matching-engine';
import { fmt8 } from './money';

/** Binance's JSON shapes for orders and trades (what ccxt's parseOrder / parseTrade read). */

const orderCore = (o: SandboxOrder) => ({
  symbol: o.symbol,
  orderId: o.orderId,
  orderListId: -1,
  clientOrderId: o.clientOrderId,
});

const orderState = (o: SandboxOrder) => ({
  price: fmt8(o.price),
  origQty: fmt8(o.origQty),
  executedQty: fmt8(o.executedQty),
  origQuoteOrderQty: fmt8(o.origQuoteOrderQty),
  cummulativeQuoteQty: fmt8(o.cummulativeQuoteQty),
  status: o.status,
  timeInForce: o.timeInForce,
  type: o.type,
  side: o.side,
});

/** GET /api/v3/order, openOrders, allOrders. */
export const queriedOrderJson = (o: SandboxOrder) => ({
  ...orderCore(o),
  ...orderState(o),
  stopPrice: '0.00000000',
  icebergQty: '0.00000000',
  time: o.time,
  updateTime: o.updateTime,
  isWorking: true,
  workingTime: o.time,
  selfTradePreventionMode: 'EXPIRE_MAKER',
});

export const fillJson = (t: SandboxTrade) => ({
  price: fmt8(t.price),
  qty: fmt8(t.qty),
  commission: fmt8(t.commission),
  commissionAsset: t.commissionAsset,
  tradeId: t.id,
});

export type NewOrderRespType = 'ACK' | 'RESULT' | 'FULL';

/** POST /api/v3/order in each newOrderRespType. */
export const newOrderJson = (o: SandboxOrder, fills: SandboxTrade[], respType: NewOrderRespType) => {
  const ack = { ...orderCore(o), transactTime: o.time };
  if (respType === 'ACK') return ack;
  const result = {
    ...ack,
    ...orderState(o),
    workingTime: o.time,
    selfTradePreventionMode: 'EXPIRE_MAKER',
  };
  return respType === 'RESULT' ? result : { ...result, fills: fills.map(fillJson) };
};

/** DELETE /api/v3/order: `clientOrderId` is the cancel request's own id, the order's is `origClientOrderId`. */
export const canceledOrderJson = (o: SandboxOrder, cancelClientId: string) => ({
  symbol: o.symbol,
  origClientOrderId: o.clientOrderId,
  orderId: o.orderId,
  orderListId: -1,
  clientOrderId: cancelClientId,
  transactTime: o.updateTime,
  ...orderState(o),
  selfTradePreventionMode: 'EXPIRE_MAKER',
});

/** GET /api/v3/myTrades. */
export const myTradeJson = (t: SandboxTrade) => ({
  symbol: t.symbol,
  id: t.id,
  orderId: t.orderId,
  orderListId: -1,
  price: fmt8(t.price),
  qty: fmt8(t.qty),
  quoteQty: fmt8(t.quoteQty),
  commission: fmt8(t.commission),
  commissionAsset: t.commissionAsset,
  time: t.time,
  isBuyer: t.isBuyer,
  isMaker: t.isMaker,
  isBestMatch: true,
});
