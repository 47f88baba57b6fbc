import Decimal from 'decimal.js';
import { exactDifference, exactProduct, exactSum } from '../grid/exact';
import { quoteFeeBuy } from '../grid/formulas';
import type { OrderRole } from '../grid/types';
import { CLOSE, candleDecimal, OPEN } from './candles';
import { FILL_STRIDE, type ReplayInput, type SimulationOutcome, simulateGrid } from './simulate';

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

/** The replay's output, field names exactly as docs/grid.md: amounts as decimal strings, counts as integers. */
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
  /** Closed lots whose PnL is > 0 (docs/pnl.md). */
  profitableTrades: number;
  maxOpenLots: number;
  /** The largest Σc of open lots at any moment. */
  capitalUsed: string;
  fills: ReplayFill[];
};

/** Plain notation always (never `1e-7`), and no `-0`. */
export const decimalText = (value: Decimal): string => (value.isZero() ? '0' : value.toFixed());

/** The lot at one depth of one entry: its exact prices and quote-fee money (the functions live previews use). */
type EntryLevel = { price: string; qty: Decimal; qtyText: string; takeProfit: string };

/** Formats fills: one entry's levels are shared by all its fills, so each is computed and formatted once. */
class FillWriter {
  readonly #levels = new Map<number, EntryLevel>();
  readonly #texts = new Map<Decimal, string>();
  readonly #entries = new Map<number, Decimal>();

  constructor(readonly outcome: SimulationOutcome) {}

  level(entryCandle: number, depth: number): EntryLevel {
    const key = entryCandle * (this.outcome.shape.settings.maxTrades + 1) + depth;
    let level = this.#levels.get(key);
    if (!level) {
      const { shape, candles } = this.outcome;
      let entry = this.#entries.get(entryCandle);
      if (!entry) {
        entry = candleDecimal(candles, entryCandle, OPEN);
        this.#entries.set(entryCandle, entry);
      }
      const price = exactProduct(entry, shape.buyFactor(depth));
      const { qty } = quoteFeeBuy(shape.settings.orderSize, price, shape.feePct);
      level = {
        price: decimalText(price),
        qty,
        qtyText: decimalText(qty),
        takeProfit: decimalText(exactProduct(entry, shape.takeProfitFactor(depth))),
      };
      this.#levels.set(key, level);
    }
    return level;
  }

  text(value: Decimal): string {
    let text = this.#texts.get(value);
    if (text === undefined) {
      text = decimalText(value);
      this.#texts.set(value, text);
    }
    return text;
  }

  fill(n: number): ReplayFill {
    const f = this.outcome.fills;
    const at = n * FILL_STRIDE;
    const signed = f[at + 1]!;
    const depth = Math.abs(signed);
    const level = this.level(f[at + 3]!, depth);
    const money = this.outcome.shape.money(depth);
    const buy = signed > 0;
    return {
      time: new Date(this.outcome.candles.time[f[at]!]!).toISOString(),
      side: buy ? 'buy' : 'sell',
      role: buy ? (depth === 1 ? 'entry' : 'averaging') : 'take_profit',
      price: buy ? level.price : level.takeProfit,
      qty: level.qtyText,
      lotSeq: f[at + 2]!,
      quoteAmount: this.text(buy ? money.cost : money.proceeds),
      pnl: buy ? null : this.text(money.pnl),
    };
  }
}

/** The figures and fills of a simulation, in decimals (docs/replay.md output). */
export const replayReport = (outcome: SimulationOutcome): ReplayReport => {
  const { shape, candles } = outcome;
  let realized = new Decimal(0);
  let profitableTrades = 0;
  for (let depth = 1; depth < outcome.sellsByDepth.length; depth++) {
    const sells = outcome.sellsByDepth[depth]!;
    if (sells === 0) continue;
    const money = shape.money(depth);
    realized = exactSum(realized, exactProduct(money.pnl, sells));
    if (money.profitable) profitableTrades += sells;
  }
  const writer = new FillWriter(outcome);
  let openQty = new Decimal(0);
  for (let depth = 1; depth <= outcome.openLots; depth++) {
    openQty = exactSum(openQty, writer.level(outcome.entryCandle, depth).qty);
  }
  const openCost = shape.openCost(outcome.openLots);
  const lastClose = candles.length > 0 ? candleDecimal(candles, candles.length - 1, CLOSE) : null;
  const open = outcome.openLots > 0;
  const fills: ReplayFill[] = new Array(outcome.fillCount);
  for (let n = 0; n < outcome.fillCount; n++) fills[n] = writer.fill(n);
  return {
    buys: outcome.buys,
    sells: outcome.sells,
    realizedPnl: decimalText(realized),
    unrealizedPnl:
      open && lastClose ? decimalText(exactDifference(exactProduct(openQty, lastClose), openCost)) : '0',
    openLots: outcome.openLots,
    openQty: decimalText(openQty),
    avgPrice: open ? decimalText(openCost.div(openQty)) : null,
    profitableTrades,
    maxOpenLots: outcome.maxOpenLots,
    capitalUsed: decimalText(shape.openCost(outcome.maxOpenLots)),
    fills,
  };
};

/** Replays a coin's grid over candles (docs/replay.md) and returns the report. Pure: no I/O. */
export const replayGrid = (input: ReplayInput): ReplayReport => replayReport(simulateGrid(input));
