import type { Decimal } from 'decimal.js';
import type { SandboxOrder, SandboxTrade } from '../matching-engine';
import { ZERO } from '../money';

/** Still resting on the book (New or PartiallyFilled). */
export const resting = (o: SandboxOrder) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED';

/** Bybit's order status (enum.mdx "orderStatus"); a spot order that ended part-filled is PartiallyFilledCanceled. */
export const orderStatus = (o: SandboxOrder): string => {
  switch (o.status) {
    case 'NEW':
      return 'New';
    case 'PARTIALLY_FILLED':
      return 'PartiallyFilled';
    case 'FILLED':
      return 'Filled';
    default:
      return o.executedQty.gt(0) ? 'PartiallyFilledCanceled' : 'Cancelled';
  }
};

/** A market buy sized in the quote coin (marketUnit quoteCoin): Bybit reports its qty in quote. */
export const inQuote = (o: SandboxOrder) =>
  o.type === 'MARKET' && o.side === 'BUY' && o.origQuoteOrderQty.gt(0);

/** One order as GET /v5/order/realtime lists it (open-order.mdx, spot). */
export const orderJson = (o: SandboxOrder, trades: SandboxTrade[]) => {
  const left = resting(o) ? o.origQty.sub(o.executedQty) : ZERO;
  const own = trades.filter((t) => t.orderId === o.orderId);
  const fee = own.reduce((sum, t) => sum.add(t.commission), ZERO);
  const feeAsset = own[0]?.commissionAsset;
  return {
    orderId: String(o.orderId),
    orderLinkId: o.clientOrderId,
    blockTradeId: '',
    symbol: o.symbol,
    price: o.type === 'MARKET' ? '0' : o.price.toFixed(),
    qty: inQuote(o) ? o.origQuoteOrderQty.toFixed() : o.origQty.toFixed(),
    side: o.side === 'BUY' ? 'Buy' : 'Sell',
    isLeverage: '0',
    positionIdx: '0',
    orderStatus: orderStatus(o),
    createType: 'CreateByUser',
    cancelType: o.status === 'CANCELED' ? 'CancelByUser' : 'UNKNOWN',
    // enum.mdx rejectReason: a cancel asked for, or a market/IOC order that could not fill whole.
    rejectReason:
      o.status === 'CANCELED'
        ? 'EC_PerCancelRequest'
        : o.status === 'EXPIRED'
          ? 'EC_CancelForNoFullFill'
          : 'EC_NoError',
    avgPrice: o.executedQty.gt(0)
      ? o.cummulativeQuoteQty.div(o.executedQty).toDecimalPlaces(8).toFixed()
      : '',
    leavesQty: left.toFixed(),
    leavesValue: o.type === 'MARKET' ? '0' : left.mul(o.price).toFixed(),
    cumExecQty: o.executedQty.toFixed(),
    cumExecValue: o.cummulativeQuoteQty.toFixed(),
    cumExecFee: fee.toFixed(),
    cumFeeDetail: feeAsset && fee.gt(0) ? { [feeAsset]: fee.toFixed() } : {},
    timeInForce: o.type === 'MARKET' ? 'IOC' : o.type === 'LIMIT_MAKER' ? 'PostOnly' : o.timeInForce,
    orderType: o.type === 'MARKET' ? 'Market' : 'Limit',
    stopOrderType: '',
    orderIv: '',
    marketUnit: o.type === 'MARKET' ? (inQuote(o) ? 'quoteCoin' : 'baseCoin') : '',
    triggerPrice: '0',
    takeProfit: '0',
    stopLoss: '0',
    tpTriggerBy: '',
    slTriggerBy: '',
    triggerDirection: '0',
    triggerBy: '',
    lastPriceOnCreated: '',
    reduceOnly: false,
    closeOnTrigger: false,
    smpType: 'None',
    smpGroup: '0',
    smpOrderId: '',
    tpslMode: '',
    tpLimitPrice: '',
    slLimitPrice: '',
    placeType: '',
    createdTime: String(o.time),
    updatedTime: String(o.updateTime),
  };
};

/** One fill as GET /v5/execution/list gives it (execution.mdx, spot). */
export const executionJson = (t: SandboxTrade, order: SandboxOrder | undefined, feeRate: Decimal) => ({
  symbol: t.symbol,
  orderId: String(t.orderId),
  orderLinkId: order?.clientOrderId ?? '',
  side: t.isBuyer ? 'Buy' : 'Sell',
  orderPrice: order && order.type !== 'MARKET' ? order.price.toFixed() : '0',
  orderQty: order ? (inQuote(order) ? order.origQuoteOrderQty : order.origQty).toFixed() : '0',
  leavesQty: order && resting(order) ? order.origQty.sub(order.executedQty).toFixed() : '0',
  createType: 'CreateByUser',
  orderType: order?.type === 'MARKET' ? 'Market' : 'Limit',
  stopOrderType: '',
  execFee: t.commission.toFixed(),
  execId: String(t.id),
  execPrice: t.price.toFixed(),
  execQty: t.qty.toFixed(),
  execType: 'Trade',
  execValue: t.quoteQty.toFixed(),
  execTime: String(t.time),
  feeCurrency: t.commissionAsset,
  isMaker: t.isMaker,
  feeRate: feeRate.toFixed(),
  tradeIv: '',
  markIv: '',
  markPrice: '',
  indexPrice: '',
  underlyingPrice: '',
  blockTradeId: '',
  closedSize: '',
  seq: String(t.id),
});
