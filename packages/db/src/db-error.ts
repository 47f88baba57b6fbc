/**
 * Stable codes of @gridbot/db failures that a launcher shows to the person starting the app (the
 * message is written for them: it names the folder, the other process and what to do).
 */
export type DbErrorCode =
  /** Another live process holds the embedded database folder. */
  | 'DB_IN_USE'
  /** PGlite could not open the folder; it was moved aside (the message says where). */
  | 'DB_DAMAGED';

export class DbError extends Error {
  override name = 'DbError';
  /** The message is the whole story for the operator: apps print it without a stack trace (runMain). */
  readonly operatorMessage = true;

  constructor(
    readonly code: DbErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const isDbError = (error: unknown, code?: DbErrorCode): error is DbError =>
  error instanceof DbError && (code === undefined || error.code === code);
