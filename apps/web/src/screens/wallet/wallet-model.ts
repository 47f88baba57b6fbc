import type { Transaction, TransactionStatus, TransactionType, Withdrawal } from '@gridbot/contracts';
import { signOf, subtractUsdt } from '../../format/decimal';

/** The public TRON explorer: a txid or an address opens there (docs/wallet.md). */
const TRONSCAN = 'https://tronscan.org/#';

export const tronscanTransactionUrl = (txid: string) => `${TRONSCAN}/transaction/${encodeURIComponent(txid)}`;
export const tronscanAddressUrl = (address: string) => `${TRONSCAN}/address/${encodeURIComponent(address)}`;

/** `TXYZ12…pqRST`: both ends stay, which is what a person compares against another copy. */
export const shortened = (text: string, head = 6, tail = 6): string =>
  text.length <= head + tail + 1 ? text : `${text.slice(0, head)}…${text.slice(-tail)}`;

/** What a withdrawal of `amount` delivers after the network fee; null when nothing would arrive. */
export const receivesOf = (amount: string, networkFee: string): string | null => {
  const rest = subtractUsdt(amount, networkFee);
  return signOf(rest) === 'positive' ? rest : null;
};

/** Booked and done: its amount counts in the balance it names. */
export const isSettled = (status: TransactionStatus) => status === 'confirmed' || status === 'credited';

/**
 * How an amount is drawn: credits green, debits red, money on its way — a deposit waiting for
 * finality, or under the minimum waiting for more — in the plain text colour, and money that did
 * not move — a refunded withdrawal, a deposit not credited for good — struck through.
 */
export type AmountLook = 'credit' | 'debit' | 'pending' | 'void';

export const amountLookOf = (
  transaction: Pick<Transaction, 'amount' | 'status'> & Partial<Pick<Transaction, 'reason'>>,
): AmountLook => {
  const { status, amount } = transaction;
  if (transaction.reason === 'below_minimum') return 'pending';
  if (status === 'not_credited' || status === 'rejected' || status === 'failed') return 'void';
  if (status === 'pending' && signOf(amount) !== 'negative') return 'pending';
  return signOf(amount) === 'negative' ? 'debit' : 'credit';
};

/** Which way the money went, for the row's icon. */
export type Direction = 'in' | 'out' | 'fee' | 'move';

const DIRECTIONS: Record<TransactionType, Direction> = {
  deposit: 'in',
  transfer_in: 'in',
  referral_bonus: 'in',
  matching_bonus: 'in',
  withdraw: 'out',
  withdraw_exchange: 'out',
  transfer_out: 'out',
  license_purchase: 'out',
  trade_fee: 'fee',
  deposit_balance: 'move',
  unknown: 'move',
};

export const directionOf = (type: TransactionType): Direction => DIRECTIONS[type];

/** The transaction list's type filter: every type of the list except the client's fallback. */
export const FILTER_TYPES: readonly Exclude<TransactionType, 'unknown'>[] = [
  'deposit',
  'withdraw',
  'withdraw_exchange',
  'transfer_in',
  'transfer_out',
  'deposit_balance',
  'trade_fee',
  'referral_bonus',
  'matching_bonus',
  'license_purchase',
];

/**
 * Deposits on their way: seen on chain and not yet final (they arrive once the block is
 * solidified), and those under the minimum, not credited yet (they arrive together once the
 * user's deposits under the minimum reach it; docs/wallet.md#deposits-under-the-minimum).
 */
export const arrivingDeposits = (transactions: readonly Transaction[]): Transaction[] =>
  transactions.filter(
    (transaction) =>
      transaction.type === 'deposit' &&
      (transaction.status === 'pending' || transaction.reason === 'below_minimum'),
  );

/** A withdrawal's step on its way (docs/wallet.md#withdrawals), for the progress line. */
export const WITHDRAWAL_STEPS = ['pending', 'approved', 'broadcast', 'confirmed'] as const;

const WITHDRAWAL_STATUSES: ReadonlySet<string> = new Set([...WITHDRAWAL_STEPS, 'rejected', 'failed']);

export const isWithdrawalStatus = (status: TransactionStatus): status is Withdrawal['status'] =>
  WITHDRAWAL_STATUSES.has(status);

export const withdrawalStepOf = (status: Withdrawal['status']): number =>
  (WITHDRAWAL_STEPS as readonly string[]).indexOf(status);
