import type { ErrorCode } from '@gridbot/contracts';

/**
 * Stable codes with the catalogue code each means for a user (docs/errors.md). Callers branch on
 * `code`, never on messages; the API shows `catalogueCode`. A refused transfer moves nothing.
 */
export const LEDGER_ERROR_CATALOGUE = {
  INVALID_AMOUNT: 'VALIDATION',
  INVALID_ACCOUNT_CODE: 'TRANSFER_REFUSED',
  INVALID_TRANSFER: 'TRANSFER_REFUSED',
  TOO_FEW_LEGS: 'TRANSFER_REFUSED',
  ZERO_LEG: 'TRANSFER_REFUSED',
  DUPLICATE_ACCOUNT: 'TRANSFER_REFUSED',
  UNBALANCED: 'TRANSFER_REFUSED',
  ACCOUNT_NOT_FOUND: 'WALLET_NOT_FOUND',
  INSUFFICIENT_FUNDS: 'INSUFFICIENT_FUNDS',
  IDEMPOTENCY_CONFLICT: 'REQUEST_CONFLICT',
  // A write the database keeps for ledger_transfer() alone (docs/ledger.md#who-writes-the-books).
  BOOKS_PROTECTED: 'TRANSFER_REFUSED',
} as const satisfies Record<string, ErrorCode>;

export type LedgerErrorCode = keyof typeof LEDGER_ERROR_CATALOGUE;

export class LedgerError extends Error {
  readonly code: LedgerErrorCode;

  constructor(code: LedgerErrorCode, message: string) {
    super(message);
    this.name = 'LedgerError';
    this.code = code;
  }

  get catalogueCode(): ErrorCode {
    return LEDGER_ERROR_CATALOGUE[this.code];
  }
}

export const isLedgerError = (error: unknown, code?: LedgerErrorCode): error is LedgerError =>
  error instanceof LedgerError && (code === undefined || error.code === code);
