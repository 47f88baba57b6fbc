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

/**
 * Which buy the grid wants with k open lots: the market entry with none, the next averaging buy
 * while k < N, none when dry or at the purchase limit (≥ rather than =: after the user lowers N
 * below the open lots, the bot just waits).
 */
const buyRoleOf = (k: number, maxTrades: number, flags: GridFlags): 'entry' | 'averaging' | null => {
  if (flags.dry) return null;
  if (k === 0) return 'entry';
  return k >= maxTrades ? null : 'averaging';
};

/** The one buy the grid wants now, if any: the market entry or the next averaging limit buy. */
const buyOrder = (state: GridState, settings: GridSettings, flags: GridFlags): DesiredOrder | null => {
  const k = state.lots.length;
  const newest = state.lots[k - 1];
  const role = buyRoleOf(k, settings.maxTrades, flags);
  if (!role) return null;
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

/** A planned order by its identity only: what `plan` would want, without prices. */
export type PlannedOrderKey = { key: string; side: 'buy' | 'sell'; lotSeq: number };

/**
 * The keys `plan` returns, from the lots' sequence numbers alone (oldest first), for readers that
 * do not load the lots' prices (the panel): the buy first, then the take profits newest first.
 */
export const plannedOrderKeys = (input: {
  flags: GridFlags;
  lotSeqs: readonly number[];
  nextSeq: number;
  maxTrades: number;
}): PlannedOrderKey[] => {
  if (!input.flags.running) return [];
  const keys: PlannedOrderKey[] = [];
  const role = buyRoleOf(input.lotSeqs.length, input.maxTrades, input.flags);
  if (role) {
    const key = role === 'entry' ? entryOrderKey(input.nextSeq) : buyOrderKey(input.nextSeq);
    keys.push({ key, side: 'buy', lotSeq: input.nextSeq });
  }
  for (let i = input.lotSeqs.length - 1; i >= 0; i--) {
    const lotSeq = input.lotSeqs[i]!;
    keys.push({ key: takeProfitOrderKey(lotSeq), side: 'sell', lotSeq });
  }
  return keys;
};
