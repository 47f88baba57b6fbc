import { Decimal } from 'decimal.js';
import type { Market } from './markets';
import { Dec, floorToStep, parsePositive } from './money';

/**
 * How much a market trades, as its config or the control API gives it: `quotePerLevel` of the quote
 * asset at each price level in each price step, the levels `levelSpacingPct` % apart; or
 * `'infinite'`, where every order crossed by the price fills whole at once (tests that want it).
 */
export type LiquiditySpec = 'infinite' | { quotePerLevel: string; levelSpacingPct?: string };

export type Liquidity = 'infinite' | { quotePerLevel: Decimal; levelSpacing: Decimal };

/**
 * The default: 10 USDT a level, levels 0.1 % apart. A demo grid order of 20–50 USDT then fills in
 * two to four trades over a few price steps (more when the price goes deep through it), and a
 * market order walks up (or down) the levels, so its average price reflects its size.
 */
export const DEFAULT_LIQUIDITY: LiquiditySpec = { quotePerLevel: '10', levelSpacingPct: '0.1' };

/** A market order that empties this many levels has exhausted the book: the rest expires. */
const MAX_TAKER_LEVELS = 200;

export const toLiquidity = (spec: LiquiditySpec = DEFAULT_LIQUIDITY): Liquidity => {
  if (spec === 'infinite') return 'infinite';
  return {
    quotePerLevel: parsePositive('liquidity.quotePerLevel', spec.quotePerLevel),
    levelSpacing: parsePositive('liquidity.levelSpacingPct', spec.levelSpacingPct ?? '0.1').div(100),
  };
};

export const liquidityView = (liquidity: Liquidity): LiquiditySpec =>
  liquidity === 'infinite'
    ? 'infinite'
    : {
        quotePerLevel: liquidity.quotePerLevel.toFixed(),
        levelSpacingPct: liquidity.levelSpacing.mul(100).toFixed(),
      };

/** What one level offers at `price`: its quote amount in whole lot steps, never less than one step. */
const levelQty = (market: Market, quotePerLevel: Decimal, price: Decimal): Decimal =>
  Dec.max(floorToStep(quotePerLevel.div(price), market.stepSize), market.stepSize);

export type PlannedTrade = { price: Decimal; qty: Decimal };

/** What the taker wants: a quantity, or (a market order's quoteOrderQty) a quote amount. */
export type TakerWant = { qty: Decimal } | { quote: Decimal };

/**
 * The trades a taker makes against the book from `lastPrice` outwards, level by level, each level at
 * its own price (one trade each, as Binance lists a sweep's fills), never beyond `limit`. With
 * infinite liquidity: one trade at `lastPrice`. The plan may fall short of what was wanted (the
 * limit reached or the book exhausted); the caller decides whether the rest rests or expires.
 */
export const planTake = (
  market: Market,
  side: 'BUY' | 'SELL',
  lastPrice: Decimal,
  want: TakerWant,
  limit?: Decimal,
): PlannedTrade[] => {
  const liquidity = market.liquidity;
  const buying = side === 'BUY';
  const affordable = (price: Decimal, offered: Decimal, taken: Decimal, spent: Decimal) =>
    'qty' in want
      ? Dec.min(offered, want.qty.sub(taken))
      : Dec.min(offered, floorToStep(want.quote.sub(spent).div(price), market.stepSize));
  if (liquidity === 'infinite') {
    const qty = affordable(lastPrice, new Dec(Number.MAX_SAFE_INTEGER), new Dec(0), new Dec(0));
    return qty.gt(0) ? [{ price: lastPrice, qty }] : [];
  }
  const plan: PlannedTrade[] = [];
  let taken = new Dec(0);
  let spent = new Dec(0);
  let previous: Decimal | undefined;
  for (let i = 0; i < MAX_TAKER_LEVELS; i++) {
    const raw = lastPrice.mul(
      buying ? liquidity.levelSpacing.mul(i).add(1) : liquidity.levelSpacing.mul(-i).add(1),
    );
    let price = levelPrice(market, raw, buying);
    // Levels sit at least one tick apart, and a sell never reaches below the lowest price.
    if (previous && (buying ? price.lte(previous) : price.gte(previous))) {
      price = buying ? previous.add(market.tickSize) : previous.sub(market.tickSize);
    }
    if (price.lt(market.minPrice)) break;
    if (limit && (buying ? price.gt(limit) : price.lt(limit))) break;
    const qty = affordable(price, levelQty(market, liquidity.quotePerLevel, price), taken, spent);
    if (qty.lte(0)) break;
    plan.push({ price, qty });
    taken = taken.add(qty);
    spent = spent.add(qty.mul(price));
    previous = price;
  }
  return plan;
};

/** A buyer's level rounds up to the tick, a seller's down: the book's far side of the price. */
const levelPrice = (market: Market, raw: Decimal, buying: boolean): Decimal =>
  raw
    .div(market.tickSize)
    .toDecimalPlaces(0, buying ? Decimal.ROUND_UP : Decimal.ROUND_DOWN)
    .mul(market.tickSize);

/**
 * How much of a resting order at `orderPrice` the market trades in one step that ends at `price`
 * (which crossed it): the levels from the order's price to where the step ended, at least one, each
 * `quotePerLevel` of quote. A step that goes deep through the order fills more of it.
 */
export const restingAllowance = (market: Market, orderPrice: Decimal, price: Decimal): Decimal | 'all' => {
  const liquidity = market.liquidity;
  if (liquidity === 'infinite') return 'all';
  const depth = orderPrice.sub(price).abs().div(orderPrice);
  const levels = depth.div(liquidity.levelSpacing).floor().add(1);
  return levelQty(market, liquidity.quotePerLevel.mul(levels), orderPrice);
};
