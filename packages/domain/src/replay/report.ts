import type Decimal from 'decimal.js';
import type { OrderRole } from '../grid/types';
import type { CandleSeries } from './candles';
import { type ReplayInput, type SimulatedFill, type SimulationOutcome, simulateGrid } from './simulate';

export type ReplayFill = {
  /** ISO time of the candle the fill happened in. */
  time: string;
  side: 'buy' | 'sell';
  role: OrderRole;
  price: string;
  qty: string;
  lotSeq: number;
  /** USDT: a buy's cost incl. fee, a sell's proceeds net of fee. */
  quoteAmount: string;
  /** Sells: proceeds − cost of the lot. Null for buys. */
  pnl: string | null;
};

/** The replay's output, field names exactly as DESIGN §3: amounts as decimal strings, counts as integers. */
export type ReplayReport = {
  buys: number;
  sells: number;
  realizedPnl: string;
  /** Σq × last close − Σc of open lots. */
  unrealizedPnl: string;
  openLots: number;
  openQty: string;
  /** Σc / Σq of open lots, fees included; null without open lots. */
  avgPrice: string | null;
  profitableTrades: number;
  maxOpenLots: number;
  /** The largest Σc of open lots at any moment. */
  capitalUsed: string;
  fills: ReplayFill[];
};

/** Plain notation always (never `1e-7`), and no `-0`. */
export const decimalText = (value: Decimal): string => (value.isZero() ? '0' : value.toFixed());

// Ladder levels are shared by many fills: format each decimal once.
const textCache = new WeakMap<Decimal, string>();
const cachedText = (value: Decimal): string => {
  let text = textCache.get(value);
  if (text === undefined) {
    text = decimalText(value);
    textCache.set(value, text);
  }
  return text;
};

const fillRow = (fill: SimulatedFill, candles: CandleSeries): ReplayFill => {
  const { level } = fill;
  const buy = fill.side === 'buy';
  return {
    time: new Date(candles.time[fill.candle]!).toISOString(),
    side: fill.side,
    role: buy ? (level.depth === 1 ? 'entry' : 'averaging') : 'take_profit',
    price: cachedText(buy ? level.price : level.takeProfit.value),
    qty: cachedText(level.qty),
    lotSeq: fill.lotSeq,
    quoteAmount: cachedText(buy ? level.cost : level.proceeds),
    pnl: buy ? null : cachedText(level.pnl),
  };
};

export const replayReport = (outcome: SimulationOutcome, candles: CandleSeries): ReplayReport => {
  const open = outcome.newestOpen;
  const lastClose = outcome.lastClose;
  return {
    buys: outcome.buys,
    sells: outcome.sells,
    realizedPnl: decimalText(outcome.realizedPnl),
    unrealizedPnl: open && lastClose ? decimalText(open.openQty.times(lastClose).minus(open.openCost)) : '0',
    openLots: open?.depth ?? 0,
    openQty: open ? decimalText(open.openQty) : '0',
    avgPrice: open ? decimalText(open.openCost.div(open.openQty)) : null,
    profitableTrades: outcome.profitableTrades,
    maxOpenLots: outcome.maxOpenLots,
    capitalUsed: decimalText(outcome.capitalUsed),
    fills: outcome.fills.map((fill) => fillRow(fill, candles)),
  };
};

/** Replays a coin's grid over candles (DESIGN §3 "Replay") and returns the report. Pure: no I/O. */
export const replayGrid = (input: ReplayInput): ReplayReport =>
  replayReport(simulateGrid(input), input.candles);
