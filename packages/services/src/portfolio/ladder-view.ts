import type { Ladder } from '@gridbot/contracts';
import {
  buyOrderKey,
  entryOrderKey,
  type GridFlags,
  type GridSettings,
  ladderPreview,
  takeProfitOrderKey,
  usdtFigure,
} from '@gridbot/domain';
import Decimal from 'decimal.js';
import { pctOf, pctText } from './figures';
import type { PortfolioCoinBot } from './portfolio-coin';

/**
 * The coin screen's ladder (docs/grid.md#editing-settings) from the planner's own formulas:
 * `settings` are the saved ones or, for an edit preview, the proposed ones (`preview`: what will
 * rest, no state on the exchange). Otherwise each planned order says where it stands on the
 * exchange (`onBook`, docs/grid.md#on-the-exchange) and `resting` is true only for one that rests.
 * Lots are named by their number (sequence), as the deals name them (docs/grid.md#lot-numbers).
 */
export const ladderView = (
  coin: PortfolioCoinBot,
  options: { settings?: GridSettings; flags?: GridFlags; preview?: boolean; now: Date },
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
  const onBookOf = (key: string) => (options.preview ? null : (coin.orders.get(key) ?? null));
  const rests = (key: string, planned: boolean) =>
    planned && (options.preview ? true : onBookOf(key)?.state === 'resting');
  // The next buy's key: the entry with no lot, else the averaging buy (packages/domain plan.ts).
  const buyKey = (lotSeq: number) =>
    coin.state.lots.length === 0 ? entryOrderKey(lotSeq) : buyOrderKey(lotSeq);
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
    nextEntry: preview.nextEntry
      ? {
          orderSize: usdtFigure(preview.nextEntry.orderSize),
          onBook: onBookOf(entryOrderKey(coin.state.nextSeq)),
        }
      : null,
    buys: preview.buys.map((b) => ({
      lotNumber: b.lotSeq,
      position: b.lotNumber,
      price: b.price.toFixed(),
      orderSize: usdtFigure(b.orderSize),
      quantity: b.qty.toFixed(),
      stepPct: b.stepPct.toFixed(),
      resting: rests(buyKey(b.lotSeq), b.resting),
      onBook: onBookOf(buyKey(b.lotSeq)),
    })),
    takeProfits: preview.takeProfits.map((tp) => ({
      lotId: seqToId.get(tp.lotSeq) ?? String(tp.lotSeq),
      lotNumber: tp.lotSeq,
      buyPrice: tp.buyPrice.toFixed(),
      price: tp.price.toFixed(),
      quantity: tp.qty.toFixed(),
      expectedPnl: usdtFigure(tp.expectedPnl),
      resting: rests(takeProfitOrderKey(tp.lotSeq), tp.resting),
      onBook: onBookOf(takeProfitOrderKey(tp.lotSeq)),
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
