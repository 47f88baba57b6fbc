import Decimal from 'decimal.js';
import { assertSoundGridSettings } from '../grid/settings';
import type { GridSettings } from '../grid/types';
import { type CandleSeries, firstCandleAtOrAfter } from './candles';
import { EntryLadder, type LadderLevel } from './entry-ladder';
import { atOrAbove, atOrBelow, exactPrice } from './exact-touch';

export type ReplayInput = {
  candles: CandleSeries;
  settings: GridSettings;
  /** Fee per fill in %, charged in quote. */
  feePct: Decimal;
  /** From the first candle whose time is ≥ this, the coin is dry (sells only). */
  dryFrom?: Date | null;
  /** Called every ~1 M candles (for progress bars); the replay itself does no I/O. */
  onProgress?: (done: number, total: number) => void;
};

export type SimulatedFill = {
  /** Index of the candle the fill happened in; fills are in path order. */
  candle: number;
  side: 'buy' | 'sell';
  level: LadderLevel;
  lotSeq: number;
};

export type SimulationOutcome = {
  fills: SimulatedFill[];
  buys: number;
  sells: number;
  realizedPnl: Decimal;
  profitableTrades: number;
  maxOpenLots: number;
  capitalUsed: Decimal;
  /** The newest open lot's level (its openQty/openCost cover all open lots); null when flat. */
  newestOpen: LadderLevel | null;
  lastClose: Decimal | null;
};

const PROGRESS_CHUNK = 1 << 20;

/*
 * Speed: most candles trigger nothing, so the loop only compares each candle's low with the
 * next buy's trigger and its high with the lowest take profit, as doubles against bounds that
 * are refreshed whenever the orders change (buyFast / tpFast). Any candle that might touch goes
 * through the full path rules with exact decisions (exact-touch.ts) and decimal money maths,
 * mostly precomputed per ladder depth (entry-ladder.ts).
 */
class GridReplay {
  readonly #settings: GridSettings;
  readonly #feePct: Decimal;
  readonly #candles: CandleSeries;
  #dry = false;
  #ladder: EntryLadder | null = null;
  #depth = 0;
  readonly #seqs: number[] = [];
  #nextSeq = 1;
  /** Fast path when low > buyFast: no buy can touch. +∞ forces the slow path (entry due). */
  buyFast = Number.POSITIVE_INFINITY;
  /** Fast path when high < tpFast: no take profit can touch. */
  tpFast = Number.POSITIVE_INFINITY;
  readonly outcome: SimulationOutcome = {
    fills: [],
    buys: 0,
    sells: 0,
    realizedPnl: new Decimal(0),
    profitableTrades: 0,
    maxOpenLots: 0,
    capitalUsed: new Decimal(0),
    newestOpen: null,
    lastClose: null,
  };

  constructor(input: ReplayInput) {
    this.#settings = input.settings;
    this.#feePct = input.feePct;
    this.#candles = input.candles;
  }

  run(from: number, to: number): void {
    const { low, high } = this.#candles;
    let buyFast = this.buyFast;
    let tpFast = this.tpFast;
    for (let i = from; i < to; i++) {
      if (low[i]! > buyFast && high[i]! < tpFast) continue;
      this.#candle(i);
      buyFast = this.buyFast;
      tpFast = this.tpFast;
    }
  }

  becomeDry(): void {
    this.#dry = true;
    this.#refresh();
  }

  finish(): SimulationOutcome {
    const n = this.#candles.length;
    this.outcome.lastClose = n > 0 ? exactPrice(this.#candles.close[n - 1]!) : null;
    this.outcome.newestOpen = this.#depth > 0 ? this.#ladder!.level(this.#depth) : null;
    return this.outcome;
  }

  /** One candle through DESIGN §3's path: the open (entry, then orders it already crossed), then the three segments. */
  #candle(i: number): void {
    const c = this.#candles;
    const open = c.open[i]!;
    if (this.#depth === 0) {
      if (this.#dry) return;
      this.#ladder = new EntryLadder(exactPrice(open), this.#settings, this.#feePct);
      this.#buy(i);
    }
    this.#sellUpTo(i, open);
    this.#buyDownTo(i, open);
    if (c.close[i]! >= open) {
      this.#buyDownTo(i, c.low[i]!);
      this.#sellUpTo(i, c.high[i]!);
      this.#buyDownTo(i, c.close[i]!);
    } else {
      this.#sellUpTo(i, c.high[i]!);
      this.#buyDownTo(i, c.low[i]!);
      this.#sellUpTo(i, c.close[i]!);
    }
    this.#refresh();
  }

  /** Falling to `end`: successive averaging buys fill while their trigger is ≥ end. */
  #buyDownTo(i: number, end: number): void {
    while (this.#canAverage() && atOrBelow(end, this.#ladder!.level(this.#depth + 1).buy)) this.#buy(i);
  }

  /** Rising to `end`: take profits fill in ascending price (newest lot first) while ≤ end. */
  #sellUpTo(i: number, end: number): void {
    while (this.#depth > 0 && atOrAbove(end, this.#ladder!.level(this.#depth).takeProfit)) this.#sell(i);
  }

  #canAverage(): boolean {
    return !this.#dry && this.#depth > 0 && this.#depth < this.#settings.maxTrades;
  }

  #buy(i: number): void {
    const level = this.#ladder!.level(this.#depth + 1);
    const lotSeq = this.#nextSeq++;
    this.#seqs[this.#depth] = lotSeq;
    this.#depth += 1;
    const o = this.outcome;
    o.buys += 1;
    o.fills.push({ candle: i, side: 'buy', level, lotSeq });
    if (this.#depth > o.maxOpenLots) o.maxOpenLots = this.#depth;
    if (level.openCost.gt(o.capitalUsed)) o.capitalUsed = level.openCost;
  }

  #sell(i: number): void {
    const level = this.#ladder!.level(this.#depth);
    this.#depth -= 1;
    const o = this.outcome;
    o.sells += 1;
    o.realizedPnl = o.realizedPnl.plus(level.pnl);
    if (level.profitable) o.profitableTrades += 1;
    o.fills.push({ candle: i, side: 'sell', level, lotSeq: this.#seqs[this.#depth]! });
  }

  #refresh(): void {
    const depth = this.#depth;
    if (depth === 0) {
      this.buyFast = this.#dry ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
      this.tpFast = Number.POSITIVE_INFINITY;
      return;
    }
    const ladder = this.#ladder!;
    this.buyFast = this.#canAverage() ? ladder.level(depth + 1).buy.hi : Number.NEGATIVE_INFINITY;
    this.tpFast = ladder.level(depth).takeProfit.lo;
  }
}

/** Runs the grid over the candles (DESIGN §3 "Replay"); see report.ts for the output shape. */
export const simulateGrid = (input: ReplayInput): SimulationOutcome => {
  assertSoundGridSettings(input.settings);
  const { candles, onProgress } = input;
  const total = candles.length;
  const dryAt = input.dryFrom ? firstCandleAtOrAfter(candles, input.dryFrom.getTime()) : total;
  const replay = new GridReplay(input);
  let done = 0;
  const runTo = (end: number) => {
    while (done < end) {
      const to = onProgress ? Math.min(end, done + PROGRESS_CHUNK) : end;
      replay.run(done, to);
      done = to;
      onProgress?.(done, total);
    }
  };
  runTo(dryAt);
  if (dryAt < total) replay.becomeDry();
  runTo(total);
  return replay.finish();
};
