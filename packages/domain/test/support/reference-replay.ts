import Decimal from 'decimal.js';
import { applyBuyFill, applySellFill } from '../../src/grid/fills';
import { lotTotals, quoteFeeBuy, quoteFeeLotProceeds } from '../../src/grid/formulas';
import { emptyGridState, plan } from '../../src/grid/plan';
import { coinStats } from '../../src/grid/stats';
import type { ClosedLot, DesiredOrder, GridSettings } from '../../src/grid/types';
import { type CandleSeries, CLOSE, candleDecimal, HIGH, LOW, OPEN } from '../../src/replay/candles';
import { decimalText, type ReplayFill, type ReplayReport } from '../../src/replay/report';

/**
 * A deliberately naive replay: every step asks plan() what to do and applies fills through
 * applyBuyFill / applySellFill (the lot model), comparing exact decimals only. The fast replay must agree with it to
 * the last digit; it is the executable reading of docs/replay.md.
 */
export const referenceReplay = (
  candles: CandleSeries,
  settings: GridSettings,
  feePct: Decimal,
  dryFrom: Date | null = null,
): ReplayReport => {
  let state = emptyGridState();
  const closed: ClosedLot[] = [];
  const fills: ReplayFill[] = [];
  let capitalUsed = new Decimal(0);
  let maxOpenLots = 0;

  for (let i = 0; i < candles.length; i++) {
    const time = new Date(candles.time[i]!);
    const flags = { running: true, dry: dryFrom !== null && time >= dryFrom };
    const orders = () => plan(state, settings, flags);
    const buy = (order: DesiredOrder, price: Decimal) => {
      const { qty, cost } = quoteFeeBuy(settings.orderSize, price, feePct);
      state = applyBuyFill(state, { seq: order.lotSeq, price, qty, cost, at: time });
      const invested = lotTotals(state.lots).cost;
      if (invested.gt(capitalUsed)) capitalUsed = invested;
      maxOpenLots = Math.max(maxOpenLots, state.lots.length);
      fills.push({
        time: time.toISOString(),
        side: 'buy',
        role: order.role,
        price: decimalText(price),
        qty: decimalText(qty),
        lotSeq: order.lotSeq,
        quoteAmount: decimalText(cost),
        pnl: null,
      });
    };
    const buyDownTo = (end: Decimal) => {
      for (;;) {
        const order = orders().find((o) => o.role === 'averaging');
        if (!order || order.price!.lt(end)) return;
        buy(order, order.price!);
      }
    };
    const sellUpTo = (end: Decimal) => {
      for (;;) {
        const tps = orders().filter((o) => o.role === 'take_profit');
        const lowest = tps.sort((a, b) => a.price!.comparedTo(b.price!))[0];
        if (!lowest || lowest.price!.gt(end)) return;
        const lot = state.lots.find((l) => l.seq === lowest.lotSeq)!;
        const proceeds = quoteFeeLotProceeds(settings.orderSize, lot.price, lowest.price!, feePct);
        const result = applySellFill(state, {
          lotSeq: lowest.lotSeq,
          price: lowest.price!,
          qty: lowest.qty!,
          proceeds,
          at: time,
        });
        state = result.state;
        closed.push(result.closed);
        fills.push({
          time: time.toISOString(),
          side: 'sell',
          role: 'take_profit',
          price: decimalText(lowest.price!),
          qty: decimalText(lowest.qty!),
          lotSeq: lowest.lotSeq,
          quoteAmount: decimalText(proceeds),
          pnl: decimalText(result.closed.pnl),
        });
      }
    };

    const [o, h, l, c] = ([OPEN, HIGH, LOW, CLOSE] as const).map((field) =>
      candleDecimal(candles, i, field),
    ) as [Decimal, Decimal, Decimal, Decimal];
    if (state.lots.length === 0) {
      const entry = orders().find((order) => order.role === 'entry');
      if (!entry) continue;
      buy(entry, o);
    }
    sellUpTo(o);
    buyDownTo(o);
    const path = c.gte(o) ? [l, h, c] : [h, l, c];
    let previous = o;
    for (const point of path) {
      if (point.lt(previous)) buyDownTo(point);
      else if (point.gt(previous)) sellUpTo(point);
      previous = point;
    }
  }

  const lastClose = candles.length > 0 ? candleDecimal(candles, candles.length - 1, CLOSE) : new Decimal(0);
  const stats = coinStats(state, closed, lastClose);
  return {
    buys: fills.filter((f) => f.side === 'buy').length,
    sells: closed.length,
    realizedPnl: decimalText(stats.realizedPnl),
    unrealizedPnl: decimalText(stats.unrealizedPnl),
    openLots: stats.openDeals,
    openQty: decimalText(stats.openQty),
    avgPrice: stats.avgPrice ? decimalText(stats.avgPrice) : null,
    profitableTrades: stats.profitableTrades,
    maxOpenLots,
    capitalUsed: decimalText(capitalUsed),
    fills,
  };
};
