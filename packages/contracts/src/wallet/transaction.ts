import { z } from 'zod';
import { ZIdInt, ZIsoDateTime, ZSignedUsdt, ZUsdt } from '../core';

/** Transaction types, exactly the spec's list (§3). `unknown` is what the client falls back to. */
export const ZTransactionType = z.enum([
  'trade_fee',
  'matching_bonus',
  'referral_bonus',
  'deposit_balance',
  'withdraw',
  'withdraw_exchange',
  'transfer_out',
  'transfer_in',
  'license_purchase',
  'deposit',
  'unknown',
]);
export type TransactionType = z.output<typeof ZTransactionType>;

/**
 * Transaction status. Deposits: pending (seen, awaiting finality) → credited, or not_credited
 * (under 11 USDT). Withdrawals: pending → approved → broadcast → confirmed, or rejected/failed
 * (refunded). Internal moves (fees, bonuses, transfers, licences) are confirmed at once.
 */
export const ZTransactionStatus = z.enum([
  'pending',
  'approved',
  'broadcast',
  'confirmed',
  'rejected',
  'failed',
  'credited',
  'not_credited',
]);
export type TransactionStatus = z.output<typeof ZTransactionStatus>;

/**
 * Why a deposit line is as it is (docs/wallet.md#deposits-under-the-minimum): `below_minimum` — a
 * deposit under the 11 USDT minimum, pending or not credited, credited once the user's deposits
 * under the minimum reach it in total; `below_minimum_combined` — the credit of several such
 * deposits together, their sum.
 */
export const ZTransactionReason = z.enum(['below_minimum', 'below_minimum_combined']);
export type TransactionReason = z.output<typeof ZTransactionReason>;

/** The user's two sub-balances (docs/wallet.md). */
export const ZSubBalance = z.enum(['main', 'fee']);

export const ZBalances = z.object({
  main: ZUsdt.describe('available: deposits, bonuses, transfers; pays withdrawals and licences'),
  fee: ZSignedUsdt.describe('pays trading fees; may fall to ≤ 0, then bots go dry'),
  held: ZUsdt.describe('held by pending withdrawals; already deducted from main'),
});

export const ZTransaction = z.object({
  id: z.string(),
  type: ZTransactionType,
  status: ZTransactionStatus,
  balance: ZSubBalance.describe('sub-balance the amount applies to; deposit_balance credits fee'),
  amount: ZSignedUsdt.describe('credit positive, debit negative'),
  networkFee: ZUsdt.nullable().describe('withdrawals: TRC20 network fee'),
  txid: z.string().nullable().describe('TRON transaction id for deposits and withdrawals'),
  address: z.string().nullable(),
  counterparty: z
    .object({ uid: ZIdInt, username: z.string().nullable() })
    .nullable()
    .describe('transfers: the other user; bonuses: the partner'),
  note: z.string().nullable().describe('e.g. the coin of a trade_fee, the level of a license_purchase'),
  reason: ZTransactionReason.nullable().describe(
    "deposits: below_minimum (under the minimum, not credited on its own; credited once the user's deposits under the minimum reach it in total), below_minimum_combined (such deposits credited together, their sum)",
  ),
  createdAt: ZIsoDateTime,
  updatedAt: ZIsoDateTime,
});
export type Transaction = z.output<typeof ZTransaction>;
