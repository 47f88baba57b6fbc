import { type ErrorCode, errorCatalogue } from '@gridbot/contracts';

/**
 * A failure the user should see: a stable catalogue code, mapped once (in the API) to the HTTP
 * status, the spec's message and the localized detail.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;

  get catalogueCode(): ErrorCode {
    return this.code;
  }

  constructor(
    readonly code: ErrorCode,
    readonly issues?: { path: string; message: string }[],
    /** The instant the detail's `{until}` names (docs/errors.md). */
    readonly until?: Date,
  ) {
    super(errorCatalogue[code].message);
    this.status = errorCatalogue[code].status;
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;
