import type { Ladder } from '@gridbot/contracts';
import { type GridFlags, type GridSettings, ladderPreview, usdtFigure } from '@gridbot/domain';
import Decimal from 'decimal.js';
import { pctOf, pctText } from './figures';
import type { PortfolioCoinBot } from './portfolio-coin';

/**
 * The coin screen's ladder (docs/grid.md#editing-settings) from the planner's own formulas:
 * `settings` are the saved ones or, for an edit preview, the proposed ones. `liveKeys` are the
 * planner keys of the orders resting now; without them (preview) `resting` says what will rest.
 */
export const ladderView = (
  coin: PortfolioCoinBot,
  options: { settings?: GridSettings; flags?: GridFlags; liveKeys?: ReadonlySet<string>; now: Date },
): Ladder => {
  const settings = options.settings ?? coin.settings;
  const flags = options.flags ?? coin.flags;
  // Every order as the exchange will carry it: on the market's tick and lot step (docs/grid.md#editing-settings).
  const rounding = coin.market?.rounding;
  const preview = ladderPreview(coin.state, settings, flags, coin.lastPrice, { rounding });
  // The capital figures assume every level is bought, whether the coin is dry or not.
  const full = ladderPreview(coin.state, settings, { running: true, dry: false }, coin.lastPrice, {
    rounding,
  });
  const rests = (key: string, planned: boolean) =>
    planned && (options.liveKeys ? options.liveKeys.has(key) : true);
  const seqToId = new Map(coin.openLots.map((l) => [l.seq, String(l.id)]));
  const deepest = full.buys.at(-1);
  const lowestLot = coin.state.lots.reduce<Decimal | null>(
    (low, l) => (low?.lt(l.price) ? low : l.price),
    null,
  );
  const reference = coin.lastPrice ?? coin.state.lots.at(-1)?.price ?? null;
  const deepestPrice = deepest?.price ?? lowestLot;
  const invested = coin.state.lots.reduce((sum, l) => sum.plus(l.cost), new Decimal(0));
  return {
    lastPrice: coin.lastPrice?.toFixed() ?? null,
    priceTick: coin.view.priceTick,
    qtyStep: coin.view.qtyStep,
    openLots: preview.openLots,
    maxTrades: preview.maxTrades,
    waiting: preview.waiting,
    nextEntry: preview.nextEntry ? { orderSize: usdtFigure(preview.nextEntry.orderSize) } : null,
    buys: preview.buys.map((b) => ({
      lotNumber: b.lotNumber,
      price: b.price.toFixed(),
      orderSize: usdtFigure(b.orderSize),
      quantity: b.qty.toFixed(),
      stepPct: b.stepPct.toFixed(),
      resting: rests(`buy:${b.lotSeq}`, b.resting),
    })),
    takeProfits: preview.takeProfits.map((tp) => ({
      lotId: seqToId.get(tp.lotSeq) ?? String(tp.lotSeq),
      lotNumber: tp.lotNumber,
      buyPrice: tp.buyPrice.toFixed(),
      price: tp.price.toFixed(),
      quantity: tp.qty.toFixed(),
      expectedPnl: usdtFigure(tp.expectedPnl),
      resting: rests(`tp:${tp.lotSeq}`, tp.resting),
    })),
    capitalAtLimit: deepest
      ? usdtFigure(deepest.cumulativeCost)
      : coin.state.lots.length > 0
        ? usdtFigure(invested)
        : null,
    coverageDropPct:
      reference && deepestPrice ? pctText(pctOf(reference.minus(deepestPrice), reference)) : null,
    plannedAt: options.now.toISOString(),
  };
};
