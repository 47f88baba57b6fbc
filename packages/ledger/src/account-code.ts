import type { LedgerOverdraft } from '@gridbot/db';
import { LedgerError } from './ledger-error';

/** A user's sub-balances (docs/ledger.md): main (deposits, transfers…) and fee (pays trading fees). */
export type SubBalance = 'main' | 'fee';

/** The platform's own accounts (docs/ledger.md#accounts). */
export const SYSTEM_ACCOUNTS = {
  house: 'system:house',
  fees: 'system:fees',
  bonusPool: 'system:bonus_pool',
  chainClearing: 'system:chain_clearing',
  withdrawalFees: 'system:withdrawal_fees',
  /** Withdrawals requested and not yet confirmed on chain or refunded (the users' "on hold"). */
  withdrawalsHeld: 'system:withdrawals_held',
} as const;

export const userAccountCode = (userId: number, subBalance: SubBalance): string =>
  `user:${userId}:${subBalance}`;

export type ParsedAccountCode =
  | { kind: 'user'; userId: number; subBalance: SubBalance }
  | { kind: 'system'; name: string };

// The same shapes as the ledger_accounts_identity CHECK in the database.
const USER_CODE = /^user:([1-9]\d{0,9}):(main|fee)$/;
const SYSTEM_CODE = /^system:([a-z][a-z_]*)$/;
const MAX_USER_ID = 2_147_483_647;

/** The code is the one source of an account's kind, owner and sub-balance. */
export const parseAccountCode = (code: string): ParsedAccountCode => {
  const user = USER_CODE.exec(code);
  if (user?.[1] && user[2] && Number(user[1]) <= MAX_USER_ID) {
    return { kind: 'user', userId: Number(user[1]), subBalance: user[2] as SubBalance };
  }
  const system = SYSTEM_CODE.exec(code);
  if (system?.[1]) return { kind: 'system', name: system[1] };
  throw new LedgerError('INVALID_ACCOUNT_CODE', `Not a ledger account code: ${code}`);
};

/**
 * How far the account may go below zero (docs/ledger.md#overdraft); the database's
 * ledger_accounts_overdraft_rule CHECK holds the same rule and refuses any other value.
 */
export const overdraftOf = (code: string): LedgerOverdraft => {
  const parsed = parseAccountCode(code);
  if (parsed.kind === 'user') return parsed.subBalance === 'fee' ? 'trade_fee' : 'none';
  return code === SYSTEM_ACCOUNTS.chainClearing ? 'unlimited' : 'none';
};
