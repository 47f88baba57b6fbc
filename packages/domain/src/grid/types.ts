import type Decimal from 'decimal.js';

/** Per-coin grid settings (docs/grid.md). Percentages are plain numbers: 1 = 1 %. */
export type GridSettings = {
  /** S: USDT spent by every buy (entry and averaging). */
  orderSize: Decimal;
  /** s: distance of the first averaging buy below the newest lot, and of every take profit above its lot. */
  stepPct: Decimal;
  /** d: added to the step for each further averaging buy. */
  stepIncreasePct: Decimal;
  /** N: purchase limit, the most open lots at a time. */
  maxTrades: number;
};

/** One filled buy that has not been sold yet (a "deal"). */
export type Lot = {
  seq: number;
  price: Decimal;
  qty: Decimal;
  /** USDT paid, including the buy fee (after partial sells: the share of the unsold rest). */
  cost: Decimal;
  openedAt: Date;
  /** Σ PnL of the parts of this lot sold so far (0 until a take profit fills partly), docs/pnl.md. */
  realizedPnl: Decimal;
};

export type GridState = {
  /** Open lots, oldest first. Every buy after the entry is below the newest lot, so this is also descending price. */
  lots: Lot[];
  /** Sequence number of the next lot to open; lot seqs are never reused. */
  nextSeq: number;
};

/** `dry` is the OR of every reason to stop buying (coin dry, global dryAll, licence, fee balance): the caller ORs them. */
export type GridFlags = { running: boolean; dry: boolean };

/** market_sell: a lot sold at market because the user asked (docs/grid.md#deal-controls). */
export type OrderRole = 'entry' | 'averaging' | 'take_profit' | 'market_sell';

/** What the user asked the coin bot to do now, on top of the grid (docs/grid.md#deal-controls). */
export type GridCommands = {
  /** Lots to sell at market now: each one's take profit gives way to a market sell of the lot. */
  sellNow?: readonly number[];
};

/** An order the coin bot should have resting (or place at market) right now. */
export type DesiredOrder = {
  /** Stable identity across re-plans: 'entry:<seq>' | 'buy:<seq>' | 'tp:<lotSeq>' | 'sell:<lotSeq>'. A settings edit keeps the key and changes the price. */
  key: string;
  role: OrderRole;
  side: 'buy' | 'sell';
  type: 'market' | 'limit';
  /** Limit price; null for market. */
  price: Decimal | null;
  /** Buys: S in USDT. Null for sells. */
  quoteAmount: Decimal | null;
  /** Sells: the lot quantity. Null for buys. */
  qty: Decimal | null;
  /** The lot the order opens (buys: state.nextSeq) or closes (sells). */
  lotSeq: number;
};

export type BuyFill = { seq: number; price: Decimal; qty: Decimal; cost: Decimal; at: Date };

export type SellFill = {
  lotSeq: number;
  price: Decimal;
  qty: Decimal;
  /** USDT received, net of the sell fee. */
  proceeds: Decimal;
  at: Date;
};

/**
 * One sale from a lot: the whole lot, or a part of it (a partially filled take profit). Every
 * part realizes its PnL on its own day; the lot counts as one trade, when its last part sells
 * (docs/pnl.md).
 */
export type ClosedLot = {
  seq: number;
  buyPrice: Decimal;
  sellPrice: Decimal;
  qty: Decimal;
  /** The share of the lot's cost (incl. buy fee) that this sale closes. */
  cost: Decimal;
  proceeds: Decimal;
  /** proceeds − cost of this part: net of both fees. */
  pnl: Decimal;
  openedAt: Date;
  closedAt: Date;
  /** This sale closed the lot (its last quantity sold): the lot counts as one closed trade. */
  lotClosed: boolean;
  /** Σ pnl of the lot's parts sold so far, this one included. */
  lotPnl: Decimal;
  /** Only when lotClosed: lotPnl > 0, compared exactly. */
  profitable: boolean;
};
