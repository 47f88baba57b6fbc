import type { Decimal } from 'decimal.js';
import type { Market } from '../markets';
import type { SandboxOrder, SandboxTrade } from '../matching-engine';
import { ZERO } from '../money';
import { okxError } from './okx-error';
import { optionalInt } from './okx-market-routes';
import type { OkxParams } from './okx-request';

/**
 * A client order id the sandbox made for an order placed without `clOrdId`: it starts with "_",
 * which OKX's rule never allows (docs/venues/okx.md#client-order-ids), so it cannot clash with a
 * client's and is reported as "" (OKX's answer for an order without one).
 */
export const SYSTEM_CLORDID_PREFIX = '_okx';

export const clOrdIdOf = (o: SandboxOrder): string =>
  o.clientOrderId.startsWith(SYSTEM_CLORDID_PREFIX) ? '' : o.clientOrderId;

export const resting = (o: SandboxOrder) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED';

/**
 * The order's ordType (Place order › ordType): post_only is the core's LIMIT_MAKER, ioc and fok
 * limit orders with that time in force.
 */
export const ordTypeOf = (o: SandboxOrder): string => {
  if (o.type === 'MARKET') return 'market';
  if (o.type === 'LIMIT_MAKER') return 'post_only';
  return o.timeInForce === 'IOC' ? 'ioc' : o.timeInForce === 'FOK' ? 'fok' : 'limit';
};

/**
 * OKX's order states (Get order details › state): live, partially_filled, filled, canceled; an
 * IOC, FOK or market order whose rest could not fill ends canceled, as OKX reports it.
 */
export const stateOf = (o: SandboxOrder): string => {
  switch (o.status) {
    case 'NEW':
      return 'live';
    case 'PARTIALLY_FILLED':
      return 'partially_filled';
    case 'FILLED':
      return 'filled';
    default:
      return 'canceled';
  }
};

/** A spot market buy sized in the quote coin (tgtCcy quote_ccy): its `sz` is in quote. */
export const inQuote = (o: SandboxOrder) => o.type === 'MARKET' && o.origQuoteOrderQty.gt(0);

/** OKX writes a charged fee as a negative number (docs/venues/okx.md#fees). */
const charged = (fee: Decimal): string => (fee.isZero() ? '0' : fee.neg().toFixed());

/** One order as Get order details, Get order list and the orders channel give it (spot, cash). */
export const orderJson = (o: SandboxOrder, market: Market, trades: SandboxTrade[]) => {
  const own = trades.filter((t) => t.orderId === o.orderId);
  const last = own.at(-1);
  const fee = own.reduce((sum, t) => sum.add(t.commission), ZERO);
  const feeCcy = last?.commissionAsset ?? (o.side === 'BUY' ? market.base : market.quote);
  return {
    accFillSz: o.executedQty.toFixed(),
    algoClOrdId: '',
    algoId: '',
    attachAlgoClOrdId: '',
    attachAlgoOrds: [],
    avgPx: o.executedQty.gt(0) ? o.cummulativeQuoteQty.div(o.executedQty).toDecimalPlaces(12).toFixed() : '',
    cTime: String(o.time),
    cancelSource: '',
    cancelSourceReason: '',
    category: 'normal',
    ccy: '',
    clOrdId: clOrdIdOf(o),
    fee: charged(fee),
    feeCcy,
    fillPx: last ? last.price.toFixed() : '',
    fillSz: last ? last.qty.toFixed() : '0',
    fillTime: last ? String(last.time) : '',
    instId: `${market.base}-${market.quote}`,
    instType: 'SPOT',
    isTpLimit: 'false',
    lever: '',
    linkedAlgoOrd: { algoId: '' },
    ordId: String(o.orderId),
    ordType: ordTypeOf(o),
    pnl: '0',
    posSide: 'net',
    px: o.type === 'MARKET' ? '' : o.price.toFixed(),
    pxType: '',
    pxUsd: '',
    pxVol: '',
    quickMgnType: '',
    rebate: '0',
    rebateCcy: o.side === 'BUY' ? market.quote : market.base,
    reduceOnly: 'false',
    side: o.side === 'BUY' ? 'buy' : 'sell',
    slOrdPx: '',
    slTriggerPx: '',
    slTriggerPxType: '',
    source: '',
    state: stateOf(o),
    stpId: '',
    stpMode: '',
    sz: inQuote(o) ? o.origQuoteOrderQty.toFixed() : o.origQty.toFixed(),
    tag: '',
    tdMode: 'cash',
    tgtCcy: o.type === 'MARKET' ? (inQuote(o) ? 'quote_ccy' : 'base_ccy') : '',
    tpOrdPx: '',
    tpTriggerPx: '',
    tpTriggerPxType: '',
    tradeId: last ? String(last.id) : '',
    uTime: String(o.updateTime),
  };
};

/**
 * One fill as Get transaction details gives it: `billId` (the sandbox's trade id) pages the list,
 * `execType` T (taker) or M (maker), `fee` and `feeRate` negative when charged.
 */
export const fillJson = (
  t: SandboxTrade,
  market: Market,
  order: SandboxOrder | undefined,
  feeRate: Decimal,
) => ({
  instType: 'SPOT',
  instId: `${market.base}-${market.quote}`,
  tradeId: String(t.id),
  ordId: String(t.orderId),
  clOrdId: order ? clOrdIdOf(order) : '',
  billId: String(t.id),
  subType: t.isBuyer ? '1' : '2',
  tag: '',
  fillPx: t.price.toFixed(),
  fillSz: t.qty.toFixed(),
  fillIdxPx: '',
  fillPnl: '0',
  fillPxVol: '',
  fillPxUsd: '',
  fillMarkVol: '',
  fillFwdPx: '',
  fillMarkPx: '',
  side: t.isBuyer ? 'buy' : 'sell',
  posSide: 'net',
  execType: t.isMaker ? 'M' : 'T',
  feeCcy: t.commissionAsset,
  fee: charged(t.commission),
  feeRate: feeRate.isZero() ? '0' : feeRate.neg().toFixed(),
  ts: String(t.time),
  fillTime: String(t.time),
});

/**
 * OKX's pages (Get order list, Get transaction details): newest first; `after` returns entries with
 * an id below it (older), `before` above it (newer); `limit` at most 100 (default 100).
 */
export const page = <T>(items: T[], idOf: (item: T) => number, params: OkxParams): T[] => {
  const after = optionalInt(params, 'after');
  const before = optionalInt(params, 'before');
  const limit = optionalInt(params, 'limit') ?? 100;
  if (limit < 1 || limit > 100) throw okxError('51000', 'limit');
  const picked = items
    .filter((i) => (after === undefined || idOf(i) < after) && (before === undefined || idOf(i) > before))
    .sort((a, b) => idOf(b) - idOf(a));
  // With `before` alone OKX returns the entries just newer than it: the oldest of them.
  return before !== undefined && after === undefined ? picked.slice(-limit) : picked.slice(0, limit);
};
