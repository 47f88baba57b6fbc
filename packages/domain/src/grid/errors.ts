/** Codes of the error catalogue (packages/contracts errors.ts) that grid errors mean. */
export type GridCatalogueCode = 'VALIDATION' | 'GRID_STATE_CONFLICT';

/**
 * Stable codes with the catalogue code each means for a user (docs/errors.md): settings codes are
 * input errors (VALIDATION, with the field at fault); fill codes mean a fill met a coin bot whose
 * state had moved on (a replayed or out-of-order fill), never an internal error.
 */
export const GRID_ERROR_CATALOGUE = {
  ORDER_SIZE_OUT_OF_RANGE: 'VALIDATION',
  STEP_OUT_OF_RANGE: 'VALIDATION',
  STEP_INCREASE_OUT_OF_RANGE: 'VALIDATION',
  MAX_TRADES_OUT_OF_RANGE: 'VALIDATION',
  DEEPEST_STEP_TOO_LARGE: 'VALIDATION',
  INVALID_SETTINGS: 'VALIDATION',
  INVALID_FILL: 'GRID_STATE_CONFLICT',
  LOT_SEQ_MISMATCH: 'GRID_STATE_CONFLICT',
  LOT_ALREADY_OPEN: 'GRID_STATE_CONFLICT',
  LOT_NOT_FOUND: 'GRID_STATE_CONFLICT',
  SELL_EXCEEDS_LOT: 'GRID_STATE_CONFLICT',
} as const satisfies Record<string, GridCatalogueCode>;

export type GridErrorCode = keyof typeof GRID_ERROR_CATALOGUE;

export type GridSettingsField = 'orderSize' | 'stepPct' | 'stepIncreasePct' | 'maxTrades';

export class GridError extends Error {
  override name = 'GridError';

  constructor(
    readonly code: GridErrorCode,
    message: string,
    /** The settings field at fault, for validation errors. */
    readonly field?: GridSettingsField,
  ) {
    super(message);
  }

  get catalogueCode(): GridCatalogueCode {
    return GRID_ERROR_CATALOGUE[this.code];
  }

  /** The field at fault, as the API's validation issues report fields. */
  get issues(): { path: string; message: string }[] | undefined {
    return this.field ? [{ path: `body.${this.field}`, message: this.message }] : undefined;
  }
}

export const isGridError = (error: unknown): error is GridError => error instanceof GridError;
