import { averagingBuyPrice, takeProfitPrice } from './formulas';
import { assertSoundGridSettings } from './settings';
import type { DesiredOrder, GridCommands, GridFlags, GridSettings, GridState, Lot } from './types';

export const emptyGridState = (): GridState => ({ lots: [], nextSeq: 1 });

export const entryOrderKey = (seq: number) => `entry:${seq}`;
export const buyOrderKey = (seq: number) => `buy:${seq}`;
export const takeProfitOrderKey = (lotSeq: number) => `tp:${lotSeq}`;
export const marketSellOrderKey = (lotSeq: number) => `sell:${lotSeq}`;

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

/** The user's "sell now" of one lot: its whole quantity at market (docs/grid.md#deal-controls). */
const marketSellOrder = (lot: Lot): DesiredOrder => ({
  key: marketSellOrderKey(lot.seq),
  role: 'market_sell',
  side: 'sell',
  type: 'market',
  price: null,
  quoteAmount: null,
  qty: lot.qty,
  lotSeq: lot.seq,
});

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
 *
 * The user's commands come on top (docs/grid.md#deal-controls): a lot to sell now has a market
 * sell instead of its take profit, in every mode (paused included: the user asked), and no buy is
 * planned while any sale is under way, so nothing is bought from a plan the sale is about to change.
 */
export const plan = (
  state: GridState,
  settings: GridSettings,
  flags: GridFlags,
  commands: GridCommands = {},
): DesiredOrder[] => {
  assertSoundGridSettings(settings);
  const selling = new Set(commands.sellNow ?? []);
  const sales = state.lots.filter((lot) => selling.has(lot.seq));
  if (!flags.running) return sales.reverse().map(marketSellOrder);
  const orders: DesiredOrder[] = [];
  const buy = sales.length === 0 ? buyOrder(state, settings, flags) : null;
  if (buy) orders.push(buy);
  for (let i = state.lots.length - 1; i >= 0; i--) {
    const lot = state.lots[i]!;
    orders.push(selling.has(lot.seq) ? marketSellOrder(lot) : takeProfitOrder(lot, settings));
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
