import Decimal from 'decimal.js';
import {
  averagingBuyPrice,
  averagingStepPct,
  lotTotals,
  quoteFeeBuy,
  quoteFeeSellProceeds,
  takeProfitPrice,
} from './formulas';
import { costShare } from './lot-sale';
import { assertSoundGridSettings } from './settings';
import type { GridFlags, GridSettings, GridState } from './types';

/** Fee assumed by previews when the caller does not know the exchange's (Binance spot taker/maker 0.1 %). */
export const DEFAULT_FEE_PCT = new Decimal('0.1');

/**
 * How the exchange will carry an order's figures: the engine's own rounding to the market's tick and
 * lot step (services/grid/reconcile-coin-bot.ts sends every price and quantity through it), given
 * by the caller since the domain reads no market. Without it a preview shows the planner's exact
 * figures.
 */
export type OrderRounding = {
  /** A limit price on the tick, as it is sent. */
  price: (price: Decimal) => Decimal;
  /** The base quantity a limit buy of `orderSize` (quote) at `price` is sent with. */
  buyQty: (orderSize: Decimal, price: Decimal) => Decimal;
  /** The quantity a sell of `qty` is sent with. */
  sellQty: (qty: Decimal) => Decimal;
};

export type LadderBuyLevel = {
  lotSeq: number;
  /** Position the lot would take in the stack: k + 1 for the next buy, up to N. */
  lotNumber: number;
  price: Decimal;
  orderSize: Decimal;
  /** orderSize / price; with an OrderRounding, as the order is sent (truncated to the lot step). */
  qty: Decimal;
  /** Drop from the previous level: s + (lotNumber − 2) × d. */
  stepPct: Decimal;
  /** Σc of the open lots plus every level down to this one (fees included): the capital tied up if price falls here. */
  cumulativeCost: Decimal;
  /** Only the next buy rests on the exchange; deeper levels are placed one at a time. */
  resting: boolean;
};

export type LadderTakeProfit = {
  lotSeq: number;
  lotNumber: number;
  buyPrice: Decimal;
  price: Decimal;
  qty: Decimal;
  /** Net of the fee on both legs. */
  expectedPnl: Decimal;
  resting: boolean;
};

export type LadderPreview = {
  lastPrice: Decimal | null;
  openLots: number;
  maxTrades: number;
  /** Purchase limit reached: no buy until a lot sells. */
  waiting: boolean;
  /** A market entry is due; price is the last price it would roughly fill at. */
  nextEntry: { orderSize: Decimal; price: Decimal | null } | null;
  /** Next averaging buy first, then deeper levels down to lot N. */
  buys: LadderBuyLevel[];
  /** Ascending price: the newest lot first. */
  takeProfits: LadderTakeProfit[];
};

/** The levels below the newest lot (or below an entry assumed at lastPrice when there is none). */
const buyLevels = (
  state: GridState,
  settings: GridSettings,
  flags: GridFlags,
  lastPrice: Decimal | null,
  feePct: Decimal,
  rounding: OrderRounding | undefined,
): LadderBuyLevel[] => {
  const k = state.lots.length;
  const newest = state.lots[k - 1];
  let previousPrice = newest?.price ?? lastPrice;
  if (flags.dry || !previousPrice) return [];
  let cumulativeCost = lotTotals(state.lots).cost;
  let seq = state.nextSeq;
  let openLots = k;
  if (!newest) {
    // What-if: the entry fills near the last price, then the averaging levels follow from there.
    cumulativeCost = cumulativeCost.plus(quoteFeeBuy(settings.orderSize, previousPrice, feePct).cost);
    seq += 1;
    openLots = 1;
  }
  const levels: LadderBuyLevel[] = [];
  for (; openLots < settings.maxTrades; openLots++, seq++) {
    // On the tick: the buy fills there at best, so the next level follows from the sent price.
    const planned = averagingBuyPrice(previousPrice, settings, openLots);
    const price = rounding ? rounding.price(planned) : planned;
    const { qty: exactQty, cost } = quoteFeeBuy(settings.orderSize, price, feePct);
    const qty = rounding ? rounding.buyQty(settings.orderSize, price) : exactQty;
    cumulativeCost = cumulativeCost.plus(cost);
    levels.push({
      lotSeq: seq,
      lotNumber: openLots + 1,
      price,
      orderSize: settings.orderSize,
      qty,
      stepPct: averagingStepPct(settings, openLots),
      cumulativeCost,
      resting: flags.running && k > 0 && openLots === k,
    });
    previousPrice = price;
  }
  return levels;
};

/**
 * The resting ladder for the settings-edit preview and the coin screen: every buy level down to
 * the purchase limit with the capital it would tie up, and the take profit of every open lot.
 * Uses the planner's formulas, so what the user sees before saving is what reconcile will place;
 * with `rounding`, at the market's tick and lot step as reconcile sends them (docs/grid.md#editing-settings).
 */
export const ladderPreview = (
  state: GridState,
  settings: GridSettings,
  flags: GridFlags,
  lastPrice: Decimal | null,
  options: { feePct?: Decimal; rounding?: OrderRounding } = {},
): LadderPreview => {
  assertSoundGridSettings(settings);
  const feePct = options.feePct ?? DEFAULT_FEE_PCT;
  const { rounding } = options;
  const k = state.lots.length;
  const takeProfits = state.lots
    .map((lot, index): LadderTakeProfit => {
      const planned = takeProfitPrice(lot.price, settings);
      const price = rounding ? rounding.price(planned) : planned;
      // A sell of whole lot steps: the rest is carried with its share of the cost (docs/grid.md#remainders).
      const qty = rounding ? rounding.sellQty(lot.qty) : lot.qty;
      return {
        lotSeq: lot.seq,
        lotNumber: index + 1,
        buyPrice: lot.price,
        price,
        qty,
        expectedPnl: quoteFeeSellProceeds(qty, price, feePct).minus(costShare(lot, qty)),
        resting: flags.running,
      };
    })
    // Lots are descending in price, but sort anyway: the contract promises ascending take profits.
    .sort((a, b) => a.price.comparedTo(b.price));
  return {
    lastPrice,
    openLots: k,
    maxTrades: settings.maxTrades,
    waiting: k > 0 && k >= settings.maxTrades,
    nextEntry:
      flags.running && !flags.dry && k === 0 ? { orderSize: settings.orderSize, price: lastPrice } : null,
    buys: buyLevels(state, settings, flags, lastPrice, feePct, rounding),
    takeProfits,
  };
};
