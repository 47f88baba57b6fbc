import { z } from 'zod';
import { defineEndpoint, ZDecimal, ZIsoDateTime } from '../core';
import { documented } from '../errors';
import { ZLadderBuy, ZLadderTakeProfit, ZPriceTick, ZQtyStep } from './coin-bot';
import { ZCoinExchange, ZCoinName } from './coin-settings';

/** How far back the coin chart looks; each range has its own candle size (CHART_RANGE_CANDLES). */
export const CHART_RANGES = ['1d', '7d', '30d'] as const;
export const ZChartRange = z.enum(CHART_RANGES).describe('span of the chart: 1d, 7d or 30d');
export type ChartRange = z.output<typeof ZChartRange>;

/** Candle size of each range: 288 five-minute, 168 hourly, 180 four-hour candles. */
export const CHART_CANDLE_SIZES = ['5m', '1h', '4h'] as const;
export const CHART_RANGE_CANDLES: Record<ChartRange, (typeof CHART_CANDLE_SIZES)[number]> = {
  '1d': '5m',
  '7d': '1h',
  '30d': '4h',
};

/** At most this many fills are returned (the newest); `fillsTruncated` says when there were more. */
export const CHART_FILLS = 1000;

export const ZChartCandle = z.object({
  time: ZIsoDateTime.describe('open time of the candle'),
  open: ZDecimal,
  high: ZDecimal,
  low: ZDecimal,
  close: ZDecimal,
});
export type ChartCandle = z.output<typeof ZChartCandle>;

/** One exchange trade of the coin bot's own orders (a row of `fills`). */
export const ZChartFill = z.object({
  time: ZIsoDateTime.describe('when the exchange filled it'),
  side: z.enum(['buy', 'sell']),
  kind: z.enum(['entry', 'averaging', 'take_profit', 'market_sell']),
  price: ZDecimal,
  qty: ZDecimal.describe('base quantity'),
  lotNumber: z.number().int().describe('the lot it bought or sold'),
});
export type ChartFill = z.output<typeof ZChartFill>;

export const ZCoinChart = z.object({
  coin: z.string(),
  symbol: z.string().describe('exchange market, e.g. BTC/USDT'),
  range: ZChartRange,
  candleSize: z.enum(CHART_CANDLE_SIZES),
  from: ZIsoDateTime.describe('start of the range (open time of its first candle)'),
  to: ZIsoDateTime.describe('when the answer was made'),
  candles: z
    .array(ZChartCandle)
    .describe('oldest first; the last one may still be forming (the exchange current candle)'),
  fills: z
    .array(ZChartFill)
    .describe(`the coin bot's fills in the range, oldest first (the newest ${CHART_FILLS})`),
  fillsTruncated: z.boolean(),
  ladder: z.object({
    nextBuy: ZLadderBuy.nullable().describe(
      "the coin page ladder's next averaging buy (its first level); null without an open lot or when none is planned",
    ),
    takeProfits: z.array(ZLadderTakeProfit).describe("the coin page ladder's take profits, one per open lot"),
  }),
  lastPrice: ZDecimal.nullable().describe('last traded price; null when the exchange did not answer'),
  priceTick: ZPriceTick,
  qtyStep: ZQtyStep,
});
export type CoinChart = z.output<typeof ZCoinChart>;

/**
 * Price chart of one coin of the portfolio (docs/grid.md#coin-chart): the exchange's candles over
 * the range (cached like the backtest's), the coin bot's own fills as markers, and the resting
 * ladder (next buy, take profits) as price lines.
 */
export const getCoinChart = defineEndpoint({
  id: 'portfolio.getCoinChart',
  method: 'GET',
  path: '/portfolio/chart',
  summary: 'Price chart of a coin with its fills and ladder',
  tags: ['portfolio'],
  auth: true,
  rateLimit: { max: 1, windowMs: 1000 },
  query: z.object({ coin: ZCoinName, exchange: ZCoinExchange, range: ZChartRange.default('1d') }),
  response: ZCoinChart,
  errors: {
    400: documented('VALIDATION', 'EXCHANGE_REQUIRED'),
    401: documented('UNAUTHORIZED'),
    404: documented('COIN_NOT_FOUND'),
    422: documented('API_KEYS_MISSING'),
    429: documented('RATE_LIMITED'),
    502: documented('EXCHANGE_UNAVAILABLE'),
  },
});
