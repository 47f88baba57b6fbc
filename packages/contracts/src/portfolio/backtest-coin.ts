import { z } from 'zod';
import { defineEndpoint, ZIsoDateTime, ZPct, ZSignedDecimal, ZSignedUsdt, ZUsdt } from '../core';
import { documented } from '../errors';
import { ZPriceTick, ZQtyStep } from './coin-bot';
import {
  DEEPEST_STEP_PCT_LIMIT,
  isDeepestStepAllowed,
  ZCoinExchange,
  ZCoinName,
  ZMaxTradesInput,
  ZOrderSizeInput,
  ZStepIncreasePctInput,
  ZStepPctInput,
} from './coin-settings';

/** Which past the backtest replays: span and candle interval. */
export const BACKTEST_WINDOWS = ['7d_1m', '30d_5m', '30d_1m', '365d_1h'] as const;
export const ZBacktestWindow = z.enum(BACKTEST_WINDOWS).describe('span_interval of the candles replayed');
export type BacktestWindow = z.output<typeof ZBacktestWindow>;

/** At most this many fills and price points are returned for the chart. */
export const BACKTEST_CHART_FILLS = 500;
export const BACKTEST_CHART_POINTS = 500;

const PCT = /^\d+(\.\d+)?$/;

/** Body of POST /portfolio/backtest: a coin and the settings to try (the edit form's rules). */
export const ZBacktestInput = z
  .object({
    coin: ZCoinName,
    exchange: ZCoinExchange,
    orderSize: ZOrderSizeInput,
    stepPct: ZStepPctInput,
    stepIncreasePct: ZStepIncreasePctInput,
    maxTrades: ZMaxTradesInput,
    window: ZBacktestWindow.default('30d_5m'),
  })
  .refine(
    (s) =>
      !(
        typeof s.stepPct === 'string' &&
        PCT.test(s.stepPct) &&
        typeof s.stepIncreasePct === 'string' &&
        PCT.test(s.stepIncreasePct) &&
        Number.isSafeInteger(s.maxTrades)
      ) || isDeepestStepAllowed(s.stepPct, s.stepIncreasePct, s.maxTrades),
    {
      message: `stepPct + (maxTrades - 2) × stepIncreasePct must stay below ${DEEPEST_STEP_PCT_LIMIT} %`,
      path: ['stepIncreasePct'],
    },
  );

export const ZBacktestFill = z.object({
  time: ZIsoDateTime.describe('open time of the candle the fill happened in'),
  side: z.enum(['buy', 'sell']),
  price: z.string().describe('decimal'),
  qty: z.string().describe('base quantity, decimal'),
});

export const ZBacktestResult = z.object({
  coin: z.string(),
  window: ZBacktestWindow,
  from: ZIsoDateTime.describe('open time of the first candle replayed'),
  to: ZIsoDateTime.describe('end of the last candle replayed (exclusive)'),
  candles: z.number().int().describe('candles replayed'),
  feePct: ZPct.describe('fee per fill used, %'),
  realizedPnl: ZSignedUsdt.describe('realized profit of the closed deals, USDT'),
  realizedPnlPct: ZSignedDecimal.describe('realized profit, % of the capital at the purchase limit'),
  closedDeals: z.number().int().describe('lots bought and sold'),
  profitableDeals: z.number().int(),
  buys: z.number().int(),
  sells: z.number().int(),
  openLots: z.number().int().describe('lots still open after the last candle'),
  openQty: z.string(),
  unrealizedPnl: ZSignedUsdt.describe('open lots valued at the last close, minus their cost'),
  lastClose: z.string().nullable(),
  priceTick: ZPriceTick,
  qtyStep: ZQtyStep,
  maxOpenLots: z.number().int(),
  capitalAtLimit: ZUsdt.describe('USDT spent when all maxTrades lots are open (the ladder)'),
  capitalUsed: ZUsdt.describe('largest USDT held in open lots at any moment of the replay'),
  worstDrawdown: z.object({
    usdt: ZSignedUsdt.describe('worst unrealized PnL of the open lots, at a candle low (≤ 0)'),
    pct: ZSignedDecimal.describe('the same, % of the capital at the purchase limit'),
    at: ZIsoDateTime.nullable().describe('open time of that candle; null when never below cost'),
  }),
  fills: z.array(ZBacktestFill).describe(`the first ${BACKTEST_CHART_FILLS} fills, oldest first`),
  fillsTruncated: z.boolean(),
  prices: z
    .array(z.object({ time: ZIsoDateTime, close: z.string() }))
    .describe(`closes, downsampled to at most ${BACKTEST_CHART_POINTS} points`),
});
export type BacktestResult = z.output<typeof ZBacktestResult>;

/**
 * What-if backtest: replays the settings with the live grid engine over the coin's recent candles
 * from the user's exchange (docs/grid.md#what-if-backtest). Changes nothing.
 */
export const backtestCoin = defineEndpoint({
  id: 'portfolio.backtestCoin',
  method: 'POST',
  path: '/portfolio/backtest',
  summary: 'Replay grid settings over recent candles (what-if backtest)',
  tags: ['portfolio'],
  auth: true,
  body: ZBacktestInput,
  response: ZBacktestResult,
  rateLimit: { max: 1, windowMs: 3000 },
  errors: {
    400: documented('VALIDATION', 'EXCHANGE_REQUIRED'),
    401: documented('UNAUTHORIZED'),
    422: documented('API_KEYS_MISSING', 'COIN_NOT_LISTED'),
    429: documented('RATE_LIMITED'),
    502: documented('EXCHANGE_UNAVAILABLE'),
  },
});
