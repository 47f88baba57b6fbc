import { averagingBuyPrice, takeProfitPrice } from './formulas';
import { assertSoundGridSettings } from './settings';
import type { DesiredOrder, GridFlags, GridSettings, GridState, Lot } from './types';

export const emptyGridState = (): GridState => ({ lots: [], nextSeq: 1 });

export const entryOrderKey = (seq: number) => `entry:${seq}`;
export const buyOrderKey = (seq: number) => `buy:${seq}`;
export const takeProfitOrderKey = (lotSeq: number) => `tp:${lotSeq}`;

const takeProfitOrder = (lot: Lot, settings: GridSettings): DesiredOrder => ({
  key: takeProfitOrderKey(lot.seq),
  role: 'take_profit',
  side: 'sell',
  type: 'limit',
  price: takeProfitPrice(lot.price, settings),
  quoteAmount: null,
  qty: lot.qty,
  lotSeq: lot.seq,
});

/** The one buy the grid wants now, if any: the market entry or the next averaging limit buy. */
const buyOrder = (state: GridState, settings: GridSettings, flags: GridFlags): DesiredOrder | null => {
  const k = state.lots.length;
  const newest = state.lots[k - 1];
  if (flags.dry) return null;
  if (!newest) {
    return {
      key: entryOrderKey(state.nextSeq),
      role: 'entry',
      side: 'buy',
      type: 'market',
      price: null,
      quoteAmount: settings.orderSize,
      qty: null,
      lotSeq: state.nextSeq,
    };
  }
  // ≥ rather than =: after the user lowers maxTrades below the open lots, the bot just waits.
  if (k >= settings.maxTrades) return null;
  return {
    key: buyOrderKey(state.nextSeq),
    role: 'averaging',
    side: 'buy',
    type: 'limit',
    price: averagingBuyPrice(newest.price, settings, k),
    quoteAmount: settings.orderSize,
    qty: null,
    lotSeq: state.nextSeq,
  };
};

/**
 * The orders a coin bot should have right now (docs/grid.md): at most one buy (entry at market with
 * no lots, else the next averaging limit buy below the newest lot while k < N; none when dry) and
 * one take profit per open lot, newest lot (lowest price) first. Paused → nothing.
 *
 * Pure and total over its inputs, so reconcile can diff it against the exchange any number of
 * times; settings edits simply produce the same keys at new prices.
 */
export const plan = (state: GridState, settings: GridSettings, flags: GridFlags): DesiredOrder[] => {
  assertSoundGridSettings(settings);
  if (!flags.running) return [];
  const orders: DesiredOrder[] = [];
  const buy = buyOrder(state, settings, flags);
  if (buy) orders.push(buy);
  for (let i = state.lots.length - 1; i >= 0; i--) {
    orders.push(takeProfitOrder(state.lots[i]!, settings));
  }
  return orders;
};
