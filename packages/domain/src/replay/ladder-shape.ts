import Decimal from 'decimal.js';
import { exactProduct, exactSum } from '../grid/exact';
import { averagingFactor, quoteFeeBuy, quoteFeeLotProceeds, takeProfitPrice } from '../grid/formulas';
import { openLot, sellFromLot } from '../grid/lot-sale';
import { assertSoundGridSettings } from '../grid/settings';
import type { GridSettings } from '../grid/types';

/** Money of the lot at one depth of the ladder: the same for every entry price (see LadderShape). */
export type LevelMoney = { cost: Decimal; proceeds: Decimal; pnl: Decimal; profitable: boolean };

const SOME_DATE = new Date(0);

/**
 * The ladder of one entry, relative to the entry price E, for fixed settings and fee.
 *
 * Lot k (1 = the entry) is bought at E × F_k with F_1 = 1 and F_{k+1} = F_k × (1 − (s + (k − 1)
 * d)/100), and sold at E × F_k × (1 + s/100): every price of an entry is E times an exact factor,
 * so the factors are computed once per settings, exactly (thousands of digits deep in a fine
 * ladder), with a double of each for the fast path. The money of a lot does not depend on E
 * either (cost S(1 + f/100), proceeds S(1 + s/100)(1 − f/100)): it is computed once per depth by
 * the very functions live fills and previews use (quoteFeeBuy, quoteFeeLotProceeds, openLot,
 * sellFromLot), at E = 1.
 */
export class LadderShape {
  /** F_k as a double, index k (index 0 unused). */
  readonly buyNum: Float64Array;
  /** F_k × (1 + s/100) as a double. */
  readonly takeProfitNum: Float64Array;
  readonly #buy: Decimal[] = [];
  readonly #takeProfit: Decimal[] = [];
  readonly #money: LevelMoney[] = [];
  /** Σ cost of lots 1..k (exact), index k. */
  readonly #openCost: Decimal[] = [new Decimal(0)];
  /** Depths computed so far. */
  ready = 0;

  constructor(
    readonly settings: GridSettings,
    readonly feePct: Decimal,
  ) {
    this.buyNum = new Float64Array(settings.maxTrades + 2);
    this.takeProfitNum = new Float64Array(settings.maxTrades + 2);
    this.#add(new Decimal(1));
  }

  /** Computes depths up to `depth` (≤ maxTrades); cheap to call when they exist. */
  ensure(depth: number): void {
    while (this.ready < depth) {
      const k = this.ready;
      this.#add(exactProduct(this.#buy[k]!, averagingFactor(this.settings, k)));
    }
  }

  /** F_k, exact. */
  buyFactor(depth: number): Decimal {
    this.ensure(depth);
    return this.#buy[depth]!;
  }

  /** F_k × (1 + s/100), exact. */
  takeProfitFactor(depth: number): Decimal {
    this.ensure(depth);
    return this.#takeProfit[depth]!;
  }

  money(depth: number): LevelMoney {
    this.ensure(depth);
    return this.#money[depth]!;
  }

  /** Σ cost of lots 1..depth: the capital tied up at that depth. */
  openCost(depth: number): Decimal {
    this.ensure(depth);
    return this.#openCost[depth]!;
  }

  #add(factor: Decimal): void {
    const k = this.ready + 1;
    const { orderSize } = this.settings;
    const takeProfit = takeProfitPrice(factor, this.settings);
    const { qty, cost } = quoteFeeBuy(orderSize, factor, this.feePct);
    const proceeds = quoteFeeLotProceeds(orderSize, factor, takeProfit, this.feePct);
    const lot = openLot({ seq: k, price: factor, qty, cost, at: SOME_DATE });
    const { sold } = sellFromLot(lot, { lotSeq: k, price: takeProfit, qty, proceeds, at: SOME_DATE });
    this.#buy[k] = factor;
    this.#takeProfit[k] = takeProfit;
    this.buyNum[k] = factor.toNumber();
    this.takeProfitNum[k] = takeProfit.toNumber();
    this.#money[k] = { cost, proceeds, pnl: sold.lotPnl, profitable: sold.profitable };
    this.#openCost[k] = exactSum(this.#openCost[k - 1]!, cost);
    this.ready = k;
  }
}

const shapes = new Map<string, LadderShape>();
const MAX_SHAPES = 64;
// Decimals are immutable: the same instances mean the same values.
const sameSettings = (a: GridSettings, b: GridSettings) =>
  a.orderSize === b.orderSize &&
  a.stepPct === b.stepPct &&
  a.stepIncreasePct === b.stepIncreasePct &&
  a.maxTrades === b.maxTrades;

/** The last shape per settings object: repeated replays with the same settings skip building the key. */
const bySettings = new WeakMap<GridSettings, LadderShape>();

/**
 * The shape for these settings and fee, shared by every replay with them (previews and
 * backtests replay the same settings over many candle sets); a small cache, cleared when full.
 * Settings are checked once, when their shape is made.
 */
export const ladderShape = (settings: GridSettings, feePct: Decimal): LadderShape => {
  const last = bySettings.get(settings);
  if (last && sameSettings(last.settings, settings) && (last.feePct === feePct || last.feePct.eq(feePct)))
    return last;
  const key = [
    settings.orderSize.toString(),
    settings.stepPct.toString(),
    settings.stepIncreasePct.toString(),
    settings.maxTrades,
    feePct.toString(),
  ].join('|');
  let shape = shapes.get(key);
  if (!shape) {
    assertSoundGridSettings(settings);
    if (shapes.size >= MAX_SHAPES) shapes.clear();
    shape = new LadderShape({ ...settings }, feePct);
    shapes.set(key, shape);
  }
  bySettings.set(settings, shape);
  return shape;
};
