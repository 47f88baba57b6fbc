import type Decimal from 'decimal.js';
import { exactProduct } from '../grid/exact';
import type { GridSettings } from '../grid/types';
import {
  type CandleSeries,
  CLOSE,
  candleDecimal,
  firstCandleAtOrAfter,
  HIGH,
  LOW,
  OPEN,
  type PriceField,
} from './candles';
import { type LadderShape, ladderShape } from './ladder-shape';

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

/** Fills are kept as integers, FILL_STRIDE per fill: candle index, ±depth (+ buy, − sell), lot seq, entry candle. */
export const FILL_STRIDE = 4;

/** What happened, in integers: report.ts turns it into decimals and text. */
export type SimulationOutcome = {
  candles: CandleSeries;
  shape: LadderShape;
  fillCount: number;
  fills: Int32Array;
  buys: number;
  sells: number;
  /** Sells per ladder depth: every lot at one depth has the same PnL (ladder-shape.ts). */
  sellsByDepth: number[];
  maxOpenLots: number;
  openLots: number;
  /** Candle whose open was the current entry's price (−1 when flat). */
  entryCandle: number;
};

const PROGRESS_CHUNK = 1 << 20;

/*
 * Fills are written to one module-wide buffer, reused by every replay (a replay runs to the end
 * synchronously, so two never interleave), and copied out at the exact size when it finishes:
 * one allocation per replay instead of a growing array — short busy replays (100 candles, 229
 * fills) spent most of their time growing it.
 */
let scratch = new Int32Array(4096 * FILL_STRIDE);

/*
 * A double compared with a trigger decides exactly unless the two are within this relative
 * distance: candle doubles are within 2^-53 of the file's decimals, and a trigger's double
 * (entry double × factor double, each within 2^-53 of its exact value) within ~3 × 2^-53 of the
 * exact trigger. Inside the band, exact decimals decide (candleDecimal × exact factor).
 */
const EPS = 1e-12;
const BELOW = 1 - EPS;
const ABOVE = 1 + EPS;

/*
 * Speed: most candles trigger nothing, so the loop only compares each candle's low with the
 * next buy's trigger and its high with the lowest take profit, as doubles against bounds that
 * are refreshed whenever the orders change (buyFast / tpFast). A candle that might touch goes
 * through the path rules; a fill is a few integer writes (no decimal maths: the money of a lot
 * depends only on its depth).
 */
class GridReplay {
  readonly #shape: LadderShape;
  readonly #maxTrades: number;
  readonly #candles: CandleSeries;
  #dry = false;
  #depth = 0;
  #entryNum = 0;
  #entryCandle = -1;
  #entryExact: Decimal | null = null;
  #nextSeq = 1;
  // Plain arrays of small integers: cheaper than typed arrays to create for short replays, as fast to fill.
  readonly #seqs: number[] = [0];
  #fillCount = 0;
  #buys = 0;
  #sells = 0;
  #maxDepth = 0;
  readonly #sellsByDepth: number[] = [0];
  /** Fast path when low > buyFast: no buy can touch. +∞ forces the slow path (entry due). */
  buyFast = Number.POSITIVE_INFINITY;
  /** Fast path when high < tpFast: no take profit can touch. */
  tpFast = Number.POSITIVE_INFINITY;

  constructor(input: ReplayInput) {
    this.#shape = ladderShape(input.settings, input.feePct);
    this.#maxTrades = input.settings.maxTrades;
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
    return {
      candles: this.#candles,
      shape: this.#shape,
      fillCount: this.#fillCount,
      fills: scratch.slice(0, this.#fillCount * FILL_STRIDE),
      buys: this.#buys,
      sells: this.#sells,
      sellsByDepth: this.#sellsByDepth,
      maxOpenLots: this.#maxDepth,
      openLots: this.#depth,
      entryCandle: this.#depth > 0 ? this.#entryCandle : -1,
    };
  }

  /** One candle through docs/grid.md's path: the open (entry, then orders it already crossed), then the three segments. */
  #candle(i: number): void {
    const c = this.#candles;
    const open = c.open[i]!;
    if (this.#depth === 0) {
      if (this.#dry) return;
      this.#entryNum = open;
      this.#entryCandle = i;
      this.#entryExact = null;
      this.#buy(i);
    }
    this.#sellUpTo(i, OPEN, open);
    this.#buyDownTo(i, OPEN, open);
    if (c.close[i]! >= open) {
      this.#buyDownTo(i, LOW, c.low[i]!);
      this.#sellUpTo(i, HIGH, c.high[i]!);
      this.#buyDownTo(i, CLOSE, c.close[i]!);
    } else {
      this.#sellUpTo(i, HIGH, c.high[i]!);
      this.#buyDownTo(i, LOW, c.low[i]!);
      this.#sellUpTo(i, CLOSE, c.close[i]!);
    }
    this.#refresh();
  }

  /** Falling to the candle's `field` (= end): successive averaging buys fill while their trigger is ≥ end. */
  #buyDownTo(i: number, field: PriceField, end: number): void {
    const shape = this.#shape;
    while (this.#canAverage()) {
      const next = this.#depth + 1;
      if (next > shape.ready) shape.ensure(next);
      const trigger = this.#entryNum * shape.buyNum[next]!;
      if (end > trigger * ABOVE) return;
      if (end >= trigger * BELOW && this.#exactSign(i, field, shape.buyFactor(next)) > 0) return;
      this.#buy(i);
    }
  }

  /** Rising to the candle's `field`: take profits fill in ascending price (newest lot first) while ≤ end. */
  #sellUpTo(i: number, field: PriceField, end: number): void {
    const shape = this.#shape;
    while (this.#depth > 0) {
      const trigger = this.#entryNum * shape.takeProfitNum[this.#depth]!;
      if (end < trigger * BELOW) return;
      if (end <= trigger * ABOVE && this.#exactSign(i, field, shape.takeProfitFactor(this.#depth)) < 0)
        return;
      this.#sell(i);
    }
  }

  /** Sign of (candle price − entry × factor), in exact decimals. */
  #exactSign(i: number, field: PriceField, factor: Decimal): number {
    this.#entryExact ??= candleDecimal(this.#candles, this.#entryCandle, OPEN);
    return candleDecimal(this.#candles, i, field).comparedTo(exactProduct(this.#entryExact, factor));
  }

  #canAverage(): boolean {
    return !this.#dry && this.#depth > 0 && this.#depth < this.#maxTrades;
  }

  #record(i: number, signedDepth: number, seq: number): void {
    const at = this.#fillCount++ * FILL_STRIDE;
    if (at + FILL_STRIDE > scratch.length) this.#grow();
    const f = scratch;
    f[at] = i;
    f[at + 1] = signedDepth;
    f[at + 2] = seq;
    f[at + 3] = this.#entryCandle;
  }

  #grow(): void {
    const grown = new Int32Array(scratch.length * 2);
    grown.set(scratch);
    scratch = grown;
  }

  #buy(i: number): void {
    // Depth 1 always exists; deeper buys come from #buyDownTo, which computed their level.
    const depth = ++this.#depth;
    const seq = this.#nextSeq++;
    this.#seqs[depth] = seq;
    this.#buys += 1;
    if (depth > this.#maxDepth) {
      this.#maxDepth = depth;
      this.#sellsByDepth.push(0);
    }
    this.#record(i, depth, seq);
  }

  #sell(i: number): void {
    const depth = this.#depth--;
    this.#sells += 1;
    this.#sellsByDepth[depth]! += 1;
    this.#record(i, -depth, this.#seqs[depth]!);
  }

  #refresh(): void {
    const depth = this.#depth;
    if (depth === 0) {
      this.buyFast = this.#dry ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
      this.tpFast = Number.POSITIVE_INFINITY;
      return;
    }
    const shape = this.#shape;
    if (this.#canAverage()) {
      if (depth + 1 > shape.ready) shape.ensure(depth + 1);
      this.buyFast = this.#entryNum * shape.buyNum[depth + 1]! * ABOVE;
    } else {
      this.buyFast = Number.NEGATIVE_INFINITY;
    }
    this.tpFast = this.#entryNum * shape.takeProfitNum[depth]! * BELOW;
  }
}

/** Runs the grid over the candles (docs/replay.md); report.ts turns the outcome into figures. Throws GridError on unsound settings. */
export const simulateGrid = (input: ReplayInput): SimulationOutcome => {
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
