/** Stable codes: the API maps settings codes to its VALIDATION error; fill codes mean a caller bug or a replayed fill. */
export type GridErrorCode =
  | 'ORDER_SIZE_OUT_OF_RANGE'
  | 'STEP_OUT_OF_RANGE'
  | 'STEP_INCREASE_OUT_OF_RANGE'
  | 'MAX_TRADES_OUT_OF_RANGE'
  | 'DEEPEST_STEP_TOO_LARGE'
  | 'INVALID_SETTINGS'
  | 'INVALID_FILL'
  | 'LOT_SEQ_MISMATCH'
  | 'LOT_ALREADY_OPEN'
  | 'LOT_NOT_FOUND'
  | 'SELL_EXCEEDS_LOT';

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
}

export const isGridError = (error: unknown): error is GridError => error instanceof GridError;
