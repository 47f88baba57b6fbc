import {
  DEEPEST_STEP_PCT_LIMIT,
  isDeepestStepAllowed,
  MAX_TRADES_MAX,
  MAX_TRADES_MIN,
  ORDER_SIZE_MAX_USDT,
  ORDER_SIZE_MIN_USDT,
  STEP_INCREASE_PCT_MAX,
  STEP_INCREASE_PCT_MIN,
  STEP_PCT_MAX,
  STEP_PCT_MIN,
} from '@gridbot/domain/settings-rules';
import { z } from 'zod';
import { boundedDecimal, MAX_ID, ZPct, ZUsdt } from '../core';
import { ZExchange } from '../profile/exchange-keys';

/** Coin = the base symbol of a `<COIN>/USDT` spot market, upper-cased (`btc` → `BTC`). */
export const ZCoinName = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{1,15}$/, 'must be a coin symbol (letters and digits, up to 15)')
  .describe('base coin symbol, e.g. BTC');

/**
 * The exchange of the coin bot a coin name points at (docs/grid.md#coins-on-several-exchanges): a coin
 * may run on each exchange the user has keys on. Optional while the coin is in the portfolio on one
 * exchange only (the spec's calls name the coin alone); EXCHANGE_REQUIRED when it is on several.
 */
export const ZCoinExchange = ZExchange.optional().describe(
  'the exchange of the coin bot (binance | bybit | okx); may be omitted while the coin is on one exchange only',
);

/** Id of one coin bot (a coin in one user's portfolio); the spec's `coin_user_id`. */
export const ZCoinBotId = z.coerce
  .number()
  .int()
  .positive()
  .max(MAX_ID)
  .describe('coin bot id (coin_user_id)');

// The bounds and the deepest-step rule have one home, shared with the planner (docs/grid.md#settings).
export * from '@gridbot/domain/settings-rules';

const ZPctInput = z.string().regex(/^\d+(\.\d{1,4})?$/, 'must be a decimal with at most 4 decimals');

export const ZOrderSizeInput = boundedDecimal(ZUsdt, { min: ORDER_SIZE_MIN_USDT, max: ORDER_SIZE_MAX_USDT });
export const ZStepPctInput = boundedDecimal(ZPctInput, { min: STEP_PCT_MIN, max: STEP_PCT_MAX });
export const ZStepIncreasePctInput = boundedDecimal(ZPctInput, {
  min: STEP_INCREASE_PCT_MIN,
  max: STEP_INCREASE_PCT_MAX,
});
export const ZMaxTradesInput = z.number().int().min(MAX_TRADES_MIN).max(MAX_TRADES_MAX);

const PCT = /^\d+(\.\d+)?$/;
const wellFormed = (s: { stepPct: unknown; stepIncreasePct: unknown; maxTrades: unknown }) =>
  typeof s.stepPct === 'string' &&
  PCT.test(s.stepPct) &&
  typeof s.stepIncreasePct === 'string' &&
  PCT.test(s.stepIncreasePct) &&
  Number.isSafeInteger(s.maxTrades);

/** Settings as stored and shown. */
export const ZCoinSettings = z.object({
  orderSize: ZUsdt.describe('USDT per buy'),
  stepPct: ZPct.describe('distance of the first averaging buy and of every take profit, %'),
  stepIncreasePct: ZPct.describe('added to the step for each further averaging buy, %'),
  maxTrades: z.number().int().describe('purchase limit: at most this many open lots'),
  dry: z.boolean().describe('coin drying mode: sells only'),
});
export type CoinSettings = z.output<typeof ZCoinSettings>;

/** Body of POST /portfolio/setting/edit. */
export const ZCoinSettingsInput = z
  .object({
    coin: ZCoinName,
    exchange: ZCoinExchange,
    orderSize: ZOrderSizeInput,
    stepPct: ZStepPctInput,
    stepIncreasePct: ZStepIncreasePctInput,
    maxTrades: ZMaxTradesInput,
    dry: z.boolean(),
    preview: z
      .boolean()
      .default(false)
      .describe('true: validate and return the re-planned ladder without saving (shown before saving)'),
  })
  // Checked only on well-formed fields: a malformed one already has its own issue.
  .refine((s) => !wellFormed(s) || isDeepestStepAllowed(s.stepPct, s.stepIncreasePct, s.maxTrades), {
    message: `stepPct + (maxTrades - 2) × stepIncreasePct must stay below ${DEEPEST_STEP_PCT_LIMIT} %`,
    path: ['stepIncreasePct'],
  });
