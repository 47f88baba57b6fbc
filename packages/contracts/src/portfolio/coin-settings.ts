import { z } from 'zod';
import { boundedDecimal, compareDecimal, ZPct, ZUsdt } from '../core';

/** Coin = the base symbol of a `<COIN>/USDT` spot market, upper-cased (`btc` → `BTC`). */
export const ZCoinName = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{1,15}$/, 'must be a coin symbol (letters and digits, up to 15)')
  .describe('base coin symbol, e.g. BTC');

/** Id of one coin bot (a coin in one user's portfolio); the spec's `coin_user_id`. */
export const ZCoinBotId = z.coerce.number().int().positive().describe('coin bot id (coin_user_id)');

/**
 * Bounds of the per-coin settings (spec §5 lists the minimums 0, 0.5, 1, 6 and maximums 10, 300).
 * A step below 0.5 % would be eaten by the exchange fee on both legs (≈ 0.2 %).
 */
export const ORDER_SIZE_MIN_USDT = '6';
export const ORDER_SIZE_MAX_USDT = '100000';
export const STEP_PCT_MIN = '0.5';
export const STEP_PCT_MAX = '10';
export const STEP_INCREASE_PCT_MIN = '0';
export const STEP_INCREASE_PCT_MAX = '10';
export const MAX_TRADES_MIN = 1;
export const MAX_TRADES_MAX = 300;
/** The deepest averaging step `stepPct + (maxTrades − 2) × stepIncreasePct` must stay below this. */
export const DEEPEST_STEP_PCT_LIMIT = '100';

/** Applied when a coin is added and by reset_setting (the spec's example: 0.1 % on a 1 % step). */
export const DEFAULT_COIN_SETTINGS = {
  orderSize: '10',
  stepPct: '1',
  stepIncreasePct: '0.1',
  maxTrades: 10,
  dry: false,
} as const;

const ZPctInput = z.string().regex(/^\d+(\.\d{1,4})?$/, 'must be a decimal with at most 4 decimals');

export const ZOrderSizeInput = boundedDecimal(ZUsdt, { min: ORDER_SIZE_MIN_USDT, max: ORDER_SIZE_MAX_USDT });
export const ZStepPctInput = boundedDecimal(ZPctInput, { min: STEP_PCT_MIN, max: STEP_PCT_MAX });
export const ZStepIncreasePctInput = boundedDecimal(ZPctInput, {
  min: STEP_INCREASE_PCT_MIN,
  max: STEP_INCREASE_PCT_MAX,
});
export const ZMaxTradesInput = z.number().int().min(MAX_TRADES_MIN).max(MAX_TRADES_MAX);

/** `stepPct + (maxTrades − 2) × stepIncreasePct`, exactly: the drop of the deepest averaging buy. */
export const deepestStepPct = (stepPct: string, stepIncreasePct: string, maxTrades: number): string => {
  const scale = 4;
  const toUnits = (pct: string) => {
    const [int = '0', frac = ''] = pct.split('.');
    return BigInt(int + frac.padEnd(scale, '0').slice(0, scale));
  };
  const units = toUnits(stepPct) + BigInt(Math.max(0, maxTrades - 2)) * toUnits(stepIncreasePct);
  const digits = units.toString().padStart(scale + 1, '0');
  return `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
};

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
  .refine(
    (s) =>
      compareDecimal(deepestStepPct(s.stepPct, s.stepIncreasePct, s.maxTrades), DEEPEST_STEP_PCT_LIMIT) < 0,
    {
      message: `stepPct + (maxTrades - 2) × stepIncreasePct must stay below ${DEEPEST_STEP_PCT_LIMIT} %`,
      path: ['stepIncreasePct'],
    },
  );
