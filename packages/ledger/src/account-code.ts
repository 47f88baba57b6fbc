import { LedgerError } from './ledger-error';

/** A user's sub-balances (DESIGN §4): main (deposits, transfers…) and fee (pays trading fees). */
export type SubBalance = 'main' | 'fee';

export const SYSTEM_ACCOUNTS = {
  house: 'system:house',
  fees: 'system:fees',
  bonusPool: 'system:bonus_pool',
  chainClearing: 'system:chain_clearing',
} as const;

export const userAccountCode = (userId: number, subBalance: SubBalance): string =>
  `user:${userId}:${subBalance}`;

export type ParsedAccountCode =
  | { kind: 'user'; userId: number; subBalance: string }
  | { kind: 'system'; name: string };

const USER_CODE = /^user:([1-9]\d{0,9}):([a-z][a-z_]*)$/;
const SYSTEM_CODE = /^system:([a-z][a-z_]*)$/;

/** The code is the one source of an account's kind, owner and sub-balance. */
export const parseAccountCode = (code: string): ParsedAccountCode => {
  const user = USER_CODE.exec(code);
  if (user?.[1] && user[2]) return { kind: 'user', userId: Number(user[1]), subBalance: user[2] };
  const system = SYSTEM_CODE.exec(code);
  if (system?.[1]) return { kind: 'system', name: system[1] };
  throw new LedgerError('INVALID_ACCOUNT_CODE', `Not a ledger account code: ${code}`);
};
