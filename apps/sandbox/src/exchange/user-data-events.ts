import type { BalanceView } from './accounts';
import type { OrderEvent } from './matching-engine';
import { fmt8, ZERO } from './money';

/**
 * Binance's user data stream events (spot): `executionReport` for every order change and
 * `outboundAccountPosition` for the balances it moved. Field names and formats are Binance's,
 * because ccxt's `handleOrderUpdate` / `parseWsOrder` / `handleMyTrade` read exactly these.
 */
export const executionReportJson = (event: OrderEvent, eventTime: number) => {
  const { order } = event;
  const trade = event.kind === 'TRADE' ? event.trade : undefined;
  const cancel = event.kind === 'CANCELED';
  return {
    e: 'executionReport',
    E: eventTime,
    s: order.symbol,
    // On a cancel Binance puts the cancel request's id in `c` and the order's own in `C`.
    c: cancel ? event.cancelClientOrderId : order.clientOrderId,
    S: order.side,
    o: order.type,
    f: order.timeInForce,
    q: fmt8(order.origQty),
    p: fmt8(order.price),
    P: '0.00000000',
    F: '0.00000000',
    g: -1,
    C: cancel ? order.clientOrderId : '',
    x: event.kind,
    X: order.status,
    r: 'NONE',
    i: order.orderId,
    l: fmt8(trade?.qty ?? ZERO),
    z: fmt8(order.executedQty),
    L: fmt8(trade?.price ?? ZERO),
    n: fmt8(trade?.commission ?? ZERO),
    N: trade?.commissionAsset ?? null,
    T: trade?.time ?? order.updateTime,
    t: trade?.id ?? -1,
    I: order.orderId,
    w: order.status === 'NEW' || order.status === 'PARTIALLY_FILLED',
    m: trade?.isMaker ?? false,
    M: false,
    O: order.time,
    Z: fmt8(order.cummulativeQuoteQty),
    Y: fmt8(trade?.quoteQty ?? ZERO),
    Q: fmt8(order.origQuoteOrderQty),
    W: order.time,
    V: 'EXPIRE_MAKER',
  };
};

export const accountPositionJson = (balances: BalanceView[], eventTime: number, updateTime: number) => ({
  e: 'outboundAccountPosition',
  E: eventTime,
  u: updateTime,
  B: balances.map((b) => ({ a: b.asset, f: b.free, l: b.locked })),
});
