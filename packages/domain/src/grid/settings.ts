import Decimal from 'decimal.js';
import { GridError, type GridErrorCode, type GridSettingsField } from './errors';
import { averagingStepPct } from './formulas';
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
} from './settings-rules';
import type { GridSettings } from './types';

const inRange = (value: Decimal, min: string, max: string) =>
  value.isFinite() && value.gte(min) && value.lte(max);

/** Drop of the deepest averaging buy (the one that opens lot N): s + (N − 2) × d. */
export const deepestAveragingStepPct = (settings: GridSettings): Decimal =>
  averagingStepPct(settings, Math.max(1, settings.maxTrades - 1));

/** The product rule of settings-rules.ts, on the planner's decimals (exact: no rounding). */
const deepestStepAllowed = (settings: GridSettings) =>
  isDeepestStepAllowed(settings.stepPct.toFixed(), settings.stepIncreasePct.toFixed(), settings.maxTrades);

/**
 * The product bounds of the settings (the same constants the API contract enforces), as typed
 * errors. Empty when the settings are valid. The API, the replay CLI and the edit preview share it.
 */
export const validateGridSettings = (settings: GridSettings): GridError[] => {
  const errors: GridError[] = [];
  const fail = (code: GridErrorCode, field: GridSettingsField, message: string) =>
    errors.push(new GridError(code, message, field));
  if (!inRange(settings.orderSize, ORDER_SIZE_MIN_USDT, ORDER_SIZE_MAX_USDT)) {
    fail(
      'ORDER_SIZE_OUT_OF_RANGE',
      'orderSize',
      `order size must be between ${ORDER_SIZE_MIN_USDT} and ${ORDER_SIZE_MAX_USDT} USDT`,
    );
  }
  if (!inRange(settings.stepPct, STEP_PCT_MIN, STEP_PCT_MAX)) {
    fail('STEP_OUT_OF_RANGE', 'stepPct', `step must be between ${STEP_PCT_MIN} and ${STEP_PCT_MAX} %`);
  }
  if (!inRange(settings.stepIncreasePct, STEP_INCREASE_PCT_MIN, STEP_INCREASE_PCT_MAX)) {
    fail(
      'STEP_INCREASE_OUT_OF_RANGE',
      'stepIncreasePct',
      `step increase must be between ${STEP_INCREASE_PCT_MIN} and ${STEP_INCREASE_PCT_MAX} %`,
    );
  }
  const { maxTrades } = settings;
  if (!Number.isInteger(maxTrades) || maxTrades < MAX_TRADES_MIN || maxTrades > MAX_TRADES_MAX) {
    fail(
      'MAX_TRADES_OUT_OF_RANGE',
      'maxTrades',
      `max trades must be an integer between ${MAX_TRADES_MIN} and ${MAX_TRADES_MAX}`,
    );
  }
  if (errors.length === 0 && !deepestStepAllowed(settings)) {
    fail(
      'DEEPEST_STEP_TOO_LARGE',
      'stepIncreasePct',
      `step + (max trades - 2) × step increase must stay below ${DEEPEST_STEP_PCT_LIMIT} %`,
    );
  }
  return errors;
};

/**
 * The weaker, mathematical precondition of the planner and the replay: every buy price stays
 * positive and strictly below the previous lot, and N is a whole number. Throws INVALID_SETTINGS.
 */
export const assertSoundGridSettings = (settings: GridSettings): void => {
  const { orderSize, stepPct, stepIncreasePct, maxTrades } = settings;
  const sound =
    orderSize.isFinite() &&
    orderSize.gt(0) &&
    stepPct.isFinite() &&
    stepPct.gt(0) &&
    stepIncreasePct.isFinite() &&
    stepIncreasePct.gte(0) &&
    Number.isSafeInteger(maxTrades) &&
    maxTrades >= 1 &&
    deepestStepAllowed(settings);
  if (!sound) {
    throw new GridError(
      'INVALID_SETTINGS',
      'grid settings need orderSize > 0, stepPct > 0, stepIncreasePct ≥ 0, an integer maxTrades ≥ 1 ' +
        'and a deepest step below 100 %',
    );
  }
};

export const gridSettingsFromStrings = (input: {
  orderSize: string;
  stepPct: string;
  stepIncreasePct: string;
  maxTrades: number;
}): GridSettings => ({
  orderSize: new Decimal(input.orderSize),
  stepPct: new Decimal(input.stepPct),
  stepIncreasePct: new Decimal(input.stepIncreasePct),
  maxTrades: input.maxTrades,
});
