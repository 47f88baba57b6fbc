/** Stable codes: callers (API error mapping, services) branch on these, never on messages. */
export type LedgerErrorCode =
  | 'INVALID_AMOUNT'
  | 'INVALID_ACCOUNT_CODE'
  | 'INVALID_TRANSFER'
  | 'TOO_FEW_LEGS'
  | 'ZERO_LEG'
  | 'DUPLICATE_ACCOUNT'
  | 'UNBALANCED'
  | 'ACCOUNT_NOT_FOUND'
  | 'INSUFFICIENT_FUNDS'
  | 'IDEMPOTENCY_CONFLICT'
  // A write the database keeps for ledger_transfer() alone (docs/ledger.md#who-writes-the-books).
  | 'BOOKS_PROTECTED';

export class LedgerError extends Error {
  readonly code: LedgerErrorCode;

  constructor(code: LedgerErrorCode, message: string) {
    super(message);
    this.name = 'LedgerError';
    this.code = code;
  }
}

export const isLedgerError = (error: unknown, code?: LedgerErrorCode): error is LedgerError =>
  error instanceof LedgerError && (code === undefined || error.code === code);
