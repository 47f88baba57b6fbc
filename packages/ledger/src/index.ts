// Public API of @gridbot/ledger: the internal USDT double-entry ledger (docs/ledger.md), in micro-USDT.
export {
  overdraftOf,
  type ParsedAccountCode,
  parseAccountCode,
  type SubBalance,
  SYSTEM_ACCOUNTS,
  userAccountCode,
} from './account-code';
export { checkInvariants, type InvariantMismatch, type InvariantReport } from './check-invariants';
export {
  ensureAccount,
  ensureSystemAccounts,
  ensureUserAccounts,
  openAccounts,
  type SystemAccounts,
} from './ensure-account';
export { isLedgerError, LEDGER_ERROR_CATALOGUE, LedgerError, type LedgerErrorCode } from './ledger-error';
export { fromMicro, MICRO_PER_USDT, toMicro } from './micro-usdt';
export { type AccountEntry, balanceOf, type EntriesPage, entriesOf, MAX_ENTRIES_LIMIT } from './read-ledger';
export {
  type LedgerClient,
  ledgerRefusalOf,
  type TransferEntry,
  type TransferInput,
  type TransferResult,
  transfer,
} from './transfer';
export type { TransferLeg } from './validate-transfer';
