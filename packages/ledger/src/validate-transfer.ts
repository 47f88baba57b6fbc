import { LedgerTransferType } from '@gridbot/db';
import { LedgerError } from './ledger-error';

/** One side of a transfer: signed micro-USDT, debit < 0, credit > 0. */
export type TransferLeg = { account: string; amount: bigint };

const TYPES = new Set<string>(Object.values(LedgerTransferType));

/**
 * Checks a transfer before touching the database and returns its legs in account-code order
 * (byte order, like the database function's ORDER BY … COLLATE "C").
 */
export const validateTransfer = (input: {
  idempotencyKey: string;
  type: string;
  legs: TransferLeg[];
}): TransferLeg[] => {
  if (typeof input.idempotencyKey !== 'string' || input.idempotencyKey.length === 0) {
    throw new LedgerError('INVALID_TRANSFER', 'A transfer needs an idempotency key');
  }
  if (!TYPES.has(input.type))
    throw new LedgerError('INVALID_TRANSFER', `Unknown transfer type ${input.type}`);
  if (!Array.isArray(input.legs) || input.legs.length < 2) {
    throw new LedgerError('TOO_FEW_LEGS', 'A transfer needs at least two legs');
  }
  let sum = 0n;
  const seen = new Set<string>();
  for (const leg of input.legs) {
    if (typeof leg.amount !== 'bigint')
      throw new LedgerError('INVALID_AMOUNT', 'Leg amounts are bigint micro-USDT');
    if (leg.amount === 0n) throw new LedgerError('ZERO_LEG', `Zero leg on ${leg.account}`);
    // One entry per account per transfer keeps balanceAfter unambiguous.
    if (seen.has(leg.account)) throw new LedgerError('DUPLICATE_ACCOUNT', `${leg.account} appears twice`);
    seen.add(leg.account);
    sum += leg.amount;
  }
  if (sum !== 0n) throw new LedgerError('UNBALANCED', `Legs sum to ${sum}, not zero`);
  return input.legs
    .map((leg) => ({ account: leg.account, amount: leg.amount }))
    .sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
};
