import { z } from 'zod';
import { ZDecimal, ZIdInt, ZIsoDateTime, ZPct, ZSignedUsdt, ZUsdt } from '../core';
import { ZExchange } from '../profile/exchange-keys';
import { ZCoinSettings } from './coin-settings';

/**
 * What a coin bot is doing now, derived from its flags and lots (docs/grid.md):
 * running = buys and sells; waiting = purchase limit reached (only take profits rest);
 * drying = dry (coin, global, licence expiry or empty fee balance) with open lots;
 * dried = dry and no lots left (idle); paused = orders cancelled, lots kept;
 * error = the last reconcile failed (see `lastError`).
 */
export const ZCoinState = z.enum(['running', 'waiting', 'drying', 'dried', 'paused', 'error']);
export type CoinState = z.output<typeof ZCoinState>;

/** Why a coin is dry when the user did not ask for it. */
export const ZDryReason = z.enum(['coin', 'all', 'license_expired', 'fee_balance_empty']);

export const ZCoinError = z.object({
  code: z.string().describe('error catalogue code, e.g. NO_API_CONNECTION'),
  message: z.string(),
  at: ZIsoDateTime,
});

/**
 * The exchange stopped trading the coin's market (Binance: BREAK, HALT, …): the coin waits,
 * placing and cancelling nothing, until it trades again (docs/grid.md#markets-change).
 */
export const ZMarketClosed = z.object({
  status: z.string().describe("the exchange's status of the market, e.g. BREAK or HALT"),
  since: ZIsoDateTime,
});

/**
 * Runtime and return (docs/pnl.md#runtime-and-return): time since the first start, pauses
 * included, and realized PnL over the capital set aside (orderSize × maxTrades), also annualized
 * (simple, not compounded).
 */
export const ZRunReturn = z.object({
  runningSince: ZIsoDateTime.nullable().describe('the first start; null while never started'),
  runtimeSeconds: z.number().int().nonnegative().nullable().describe('whole seconds since runningSince'),
  returnPct: ZPct.nullable().describe('realized PnL / capital × 100; null without capital'),
  annualizedPct: ZPct.nullable().describe(
    'returnPct × 365 / runtime in days, simple; null under 1 day of runtime or without capital',
  ),
});
export type RunReturn = z.output<typeof ZRunReturn>;

/**
 * Where one planned order stands on the exchange, from the engine's records (docs/grid.md#on-the-exchange):
 * resting = an open order the exchange acknowledged; placing = an intent not yet acknowledged;
 * refused = its last placement was refused; missing = no live order and no intent.
 */
export const ZOrderOnBookState = z.enum(['resting', 'placing', 'refused', 'missing']);

/** Why the exchange refused an order, in the trader's terms (the web has a text for each). */
export const ZRefusalReason = z.enum([
  'insufficient_balance',
  'below_minimum',
  'price_filter',
  'lot_size',
  'price_limit',
  'too_many_orders',
  'market_closed',
  'other',
]);

export const ZOrderRefusal = z.object({
  reason: ZRefusalReason,
  code: z.string().nullable().describe('error catalogue code, e.g. EXCHANGE_INSUFFICIENT_BALANCE'),
  exchangeCode: z.string().nullable().describe("the exchange's own code, e.g. -2010"),
  message: z.string().nullable().describe("the exchange's own words"),
  at: ZIsoDateTime,
});

export const ZOrderOnBook = z.object({
  state: ZOrderOnBookState,
  since: ZIsoDateTime.nullable().describe('when our record of it last changed; null when there is none'),
  refusal: ZOrderRefusal.nullable().describe('set when refused'),
});
export type OrderOnBook = z.output<typeof ZOrderOnBook>;

const ZBookCounts = z.object({
  planned: z.number().int(),
  resting: z.number().int(),
  placing: z.number().int(),
  refused: z.number().int(),
  missing: z.number().int(),
});

/**
 * The coin's plan on the book: none = nothing planned (paused); on_book = every planned order
 * rests; placing = the others are being placed; off_book = some are refused or missing (a warning).
 */
export const ZPlanOnBook = z.object({
  status: z.enum(['none', 'on_book', 'placing', 'off_book']),
  takeProfits: ZBookCounts,
  buys: ZBookCounts.describe('the entry or next averaging buy: 0 or 1 planned'),
});
export type PlanOnBook = z.output<typeof ZPlanOnBook>;

/** Coin statistics (docs/grid.md "Stats per coin"). USDT figures are net of exchange fees. */
export const ZCoinStats = z.object({
  unrealizedPnl: ZSignedUsdt.describe('Σq × last price − Σc over open lots'),
  realizedPnl: ZSignedUsdt.describe('Σ(proceeds − cost) over closed lots, all time'),
  openDeals: z.number().int().describe('open lot count'),
  openQty: ZDecimal.describe('Σq of open lots, base coin'),
  invested: ZUsdt.describe('Σc of open lots (fees included)'),
  avgPrice: ZDecimal.nullable().describe(
    'Σc / Σq of open lots (12 decimals; shown on the nearest tick); null without lots',
  ),
  startDate: ZIsoDateTime.nullable().describe('first fill of this coin bot; null before it'),
  profitableTrades: z.number().int().describe('closed lots with PnL > 0'),
  closedTrades: z.number().int(),
  tradeFeesPaid: ZUsdt.describe('platform trading fee paid for this coin (trade_fee)'),
  run: ZRunReturn.describe('runtime, and realizedPnl over committedCapital'),
});
export type CoinStats = z.output<typeof ZCoinStats>;

/**
 * The market's price tick (Binance PRICE_FILTER tickSize) and lot step (LOT_SIZE stepSize): every
 * price of the coin is shown at the tick and every quantity at the step, zeros kept
 * (docs/conventions.md#money-and-numbers). Null when the exchange's markets could not be read.
 */
export const ZPriceTick = ZDecimal.nullable().describe(
  "the market's price tick (PRICE_FILTER tickSize), e.g. 0.01: prices are shown at it; null when the exchange did not answer",
);
export const ZQtyStep = ZDecimal.nullable().describe(
  "the market's lot step (LOT_SIZE stepSize), e.g. 0.0001: quantities are shown at it; null when the exchange did not answer",
);

/** One coin of the portfolio, as the portfolio list and the token screen show it. */
export const ZPortfolioCoin = z.object({
  coinUserId: ZIdInt.describe('coin bot id, the spec coin_user_id'),
  coin: z.string(),
  exchange: ZExchange.describe("the exchange account's venue the coin bot trades on"),
  symbol: z.string().describe('exchange market, e.g. BTC/USDT'),
  addedAt: ZIsoDateTime,
  settings: ZCoinSettings,
  running: z.boolean().describe('started (true) or paused (false) by the user'),
  state: ZCoinState,
  dryReason: ZDryReason.nullable().describe('why the coin is effectively dry; null when it is not'),
  lastPrice: ZDecimal.nullable().describe('last traded price; null when the exchange is unreachable'),
  priceTick: ZPriceTick,
  qtyStep: ZQtyStep,
  committedCapital: ZUsdt.describe('orderSize × maxTrades, counted against the licence balance limit'),
  periodPnl: ZSignedUsdt.describe('realized PnL over the requested period'),
  periodPnlPct: ZPct.describe('periodPnl / committedCapital × 100'),
  stats: ZCoinStats,
  lastError: ZCoinError.nullable(),
  marketClosed: ZMarketClosed.nullable().describe(
    'the market is not trading: the coin waits; null while it trades',
  ),
  book: ZPlanOnBook.describe("whether the coin's planned orders rest on the exchange"),
});
export type PortfolioCoin = z.output<typeof ZPortfolioCoin>;

/** A planned or resting averaging buy. Only the next one rests on the exchange (docs/grid.md). */
export const ZLadderBuy = z.object({
  lotNumber: z
    .number()
    .int()
    .describe('the lot number (sequence) this buy would open (docs/grid.md#lot-numbers)'),
  position: z.number().int().describe('the deal it would be in the purchase limit: k + 1 of maxTrades'),
  price: ZDecimal.describe('the limit price as it is sent: on the tick (with the market known)'),
  orderSize: ZUsdt,
  quantity: ZDecimal.describe(
    'orderSize / price as it is sent: truncated to the lot step (with the market known)',
  ),
  stepPct: ZPct.describe('drop from the previous lot: stepPct + (k − 1) × stepIncreasePct'),
  resting: z.boolean().describe('true for the order resting on the exchange, false for later levels'),
  onBook: ZOrderOnBook.nullable().describe('where the planned order stands; null for levels not planned now'),
});

/** The take profit of one open lot: sell its quantity at p × (1 + step). */
export const ZLadderTakeProfit = z.object({
  lotId: z.string(),
  lotNumber: z
    .number()
    .int()
    .describe("the lot's number (sequence), as the deals name it (docs/grid.md#lot-numbers)"),
  buyPrice: ZDecimal,
  price: ZDecimal.describe('the limit price as it is sent: on the tick (with the market known)'),
  quantity: ZDecimal.describe("the lot's quantity as it is sent: whole lot steps (with the market known)"),
  expectedPnl: ZSignedUsdt.describe(
    'of the sold quantity at the sent price, net of the exchange fee on both legs, before the platform fee',
  ),
  resting: z.boolean().describe('resting on the exchange now (preview: will rest)'),
  onBook: ZOrderOnBook.nullable().describe('where it stands; null when not planned now (paused, preview)'),
});

/** The grid around the current price: what the bot will buy and sell next. */
export const ZLadder = z.object({
  lastPrice: ZDecimal.nullable(),
  priceTick: ZPriceTick,
  qtyStep: ZQtyStep,
  openLots: z.number().int(),
  maxTrades: z.number().int(),
  waiting: z.boolean().describe('purchase limit reached: no buy until a lot sells'),
  nextEntry: z
    .object({ orderSize: ZUsdt, onBook: ZOrderOnBook.nullable().describe('where the entry order stands') })
    .nullable()
    .describe('a market entry buy is due (no open lot, running, not dry)'),
  buys: z.array(ZLadderBuy).describe('next averaging buy first, then deeper planned levels up to maxTrades'),
  takeProfits: z.array(ZLadderTakeProfit).describe('ascending price: the newest lot first'),
  capitalAtLimit: ZUsdt.nullable().describe(
    'capital tied up once all maxTrades lots are bought, fees included (open lots + every planned level); null without a price to plan from',
  ),
  coverageDropPct: ZPct.nullable().describe(
    'price drop from the last price (else the newest lot) to the deepest buy level, %; null without a price',
  ),
  plannedAt: ZIsoDateTime,
});
export type Ladder = z.output<typeof ZLadder>;
