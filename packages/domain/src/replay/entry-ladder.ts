import Decimal from 'decimal.js';
import { averagingBuyPrice, quoteFeeBuy, quoteFeeSellProceeds, takeProfitPrice } from '../grid/formulas';
import type { GridSettings } from '../grid/types';
import { type Trigger, trigger } from './exact-touch';

/** Everything about the lot at one depth of a ladder, computed once in decimals. */
export type LadderLevel = {
  /** 1 = the entry lot. */
  depth: number;
  price: Decimal;
  /** The averaging buy that opens this level (unused for depth 1, which fills at market). */
  buy: Trigger;
  qty: Decimal;
  cost: Decimal;
  takeProfit: Trigger;
  proceeds: Decimal;
  pnl: Decimal;
  profitable: boolean;
  /** Σq and Σc of levels 1..depth, summed oldest first like lotTotals. */
  openQty: Decimal;
  openCost: Decimal;
};

/**
 * The lots that can exist between one entry and the sale of its last lot.
 *
 * With fixed settings, lot j + 1 is always bought at averagingBuyPrice(p_j, j), and after the
 * newest lot sells the next buy is that lot's own price again. So within one entry the lot at
 * depth j always has the same price, qty, cost, take profit and PnL: the replay computes each
 * depth once (with the planner's formulas, in decimals) and every later fill at that depth reuses
 * it. A fill then costs a few integer updates instead of a dozen decimal operations.
 */
export class EntryLadder {
  readonly #levels: LadderLevel[] = [];

  constructor(
    entryPrice: Decimal,
    readonly settings: GridSettings,
    readonly feePct: Decimal,
  ) {
    this.#levels.push(this.#makeLevel(1, entryPrice, new Decimal(0), new Decimal(0)));
  }

  /** Level `depth` (1-based), computing the levels down to it on first use. */
  level(depth: number): LadderLevel {
    while (this.#levels.length < depth) {
      const previous = this.#levels[this.#levels.length - 1]!;
      const price = averagingBuyPrice(previous.price, this.settings, previous.depth);
      this.#levels.push(this.#makeLevel(previous.depth + 1, price, previous.openQty, previous.openCost));
    }
    return this.#levels[depth - 1]!;
  }

  #makeLevel(depth: number, price: Decimal, qtyBefore: Decimal, costBefore: Decimal): LadderLevel {
    const { qty, cost } = quoteFeeBuy(this.settings.orderSize, price, this.feePct);
    const tp = takeProfitPrice(price, this.settings);
    const proceeds = quoteFeeSellProceeds(qty, tp, this.feePct);
    const pnl = proceeds.minus(cost);
    return {
      depth,
      price,
      buy: trigger(price),
      qty,
      cost,
      takeProfit: trigger(tp),
      proceeds,
      pnl,
      profitable: pnl.gt(0),
      openQty: qtyBefore.plus(qty),
      openCost: costBefore.plus(cost),
    };
  }
}
