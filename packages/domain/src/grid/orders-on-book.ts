/**
 * Where each planned order of a coin bot stands on the exchange, from the engine's own records
 * (docs/grid.md#on-the-exchange): the screens never ask the exchange. Pure.
 */

/**
 * resting: an open order the exchange acknowledged; placing: written as an intent, not yet
 * acknowledged; refused: the last placement was refused; missing: planned, with no live order
 * and no intent (cancelled or dropped by the exchange, or never placed yet).
 */
export type OrderOnBookState = 'resting' | 'placing' | 'refused' | 'missing';

/** Where an order stands, from the status of the latest record for its planner key (`orders.status`), or none. */
export const orderOnBookStateOf = (status: string | null | undefined): OrderOnBookState => {
  if (status === 'open') return 'resting';
  if (status === 'pending') return 'placing';
  if (status === 'rejected') return 'refused';
  // No record, or the latest one was cancelled or finished: nothing rests for this key now.
  return 'missing';
};

/** Why the exchange refused an order, in the trader's terms (each has a text in en/ru/cn). */
export type RefusalReason =
  | 'insufficient_balance'
  | 'below_minimum'
  | 'price_filter'
  | 'lot_size'
  | 'price_limit'
  | 'too_many_orders'
  | 'market_closed'
  | 'other';

/**
 * Binance's own words for a refused order (errors.md: -2010 "Account has insufficient balance for
 * requested action.", "Market is closed."; -1013 "Filter failure: <FILTER>",
 * https://github.com/binance/binance-spot-api-docs/blob/master/errors.md#filter-failures), first
 * match wins; the catalogue code when the message says nothing we know.
 */
const MESSAGE_REASONS: ReadonlyArray<readonly [RegExp, RefusalReason]> = [
  [/insufficient balance/i, 'insufficient_balance'],
  [/market is closed/i, 'market_closed'],
  [/filter failure: (min_)?notional/i, 'below_minimum'],
  [/filter failure: price_filter/i, 'price_filter'],
  [/filter failure: (market_)?lot_size/i, 'lot_size'],
  [/filter failure: percent_price/i, 'price_limit'],
  [/filter failure: (exchange_)?max_num_(algo_)?orders/i, 'too_many_orders'],
];

const CODE_REASONS: Readonly<Record<string, RefusalReason>> = {
  EXCHANGE_INSUFFICIENT_BALANCE: 'insufficient_balance',
  ORDER_BELOW_EXCHANGE_MIN: 'below_minimum',
};

export const refusalReasonOf = (refusal: { code: string | null; message: string | null }): RefusalReason => {
  const message = refusal.message ?? '';
  const matched = MESSAGE_REASONS.find(([pattern]) => pattern.test(message));
  if (matched) return matched[1];
  return (refusal.code && CODE_REASONS[refusal.code]) || 'other';
};

export type BookCounts = {
  planned: number;
  resting: number;
  placing: number;
  refused: number;
  missing: number;
};

/**
 * none: nothing is planned (paused); on_book: every planned order rests; placing: the rest are
 * being placed; off_book: some planned order is refused or missing (a warning on every screen).
 */
export type PlanOnBookStatus = 'none' | 'on_book' | 'placing' | 'off_book';

export type PlanOnBook = { status: PlanOnBookStatus; takeProfits: BookCounts; buys: BookCounts };

const countsOf = (states: readonly OrderOnBookState[]): BookCounts => ({
  planned: states.length,
  resting: states.filter((s) => s === 'resting').length,
  placing: states.filter((s) => s === 'placing').length,
  refused: states.filter((s) => s === 'refused').length,
  missing: states.filter((s) => s === 'missing').length,
});

/** The coin's plan on the book: its planned orders (take profits are sells, the rest buys) and where they stand. */
export const planOnBookOf = (
  orders: readonly { side: 'buy' | 'sell'; state: OrderOnBookState }[],
): PlanOnBook => {
  const takeProfits = countsOf(orders.filter((o) => o.side === 'sell').map((o) => o.state));
  const buys = countsOf(orders.filter((o) => o.side === 'buy').map((o) => o.state));
  const off = takeProfits.refused + takeProfits.missing + buys.refused + buys.missing;
  const placing = takeProfits.placing + buys.placing;
  const status: PlanOnBookStatus =
    orders.length === 0 ? 'none' : off > 0 ? 'off_book' : placing > 0 ? 'placing' : 'on_book';
  return { status, takeProfits, buys };
};
