import { z } from 'zod';
import { boundedDecimal, ZIsoDateTime, ZUsdt } from '../core';

export const USDT_NETWORK = 'TRC20';
export const USDT_TRC20_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
/** Minimum withdrawal and minimum credited deposit (docs/product.md#validation, §9). */
export const MIN_WITHDRAW_USDT = '11';
export const MIN_DEPOSIT_USDT = '11';
/** Minimum internal transfer and fee-balance top-up. */
export const MIN_TRANSFER_USDT = '1';

/**
 * TRON base58 address: 34 characters starting with T. The server also verifies the base58check
 * checksum and the 0x41 prefix; any failure is 'Withdrawal address format error'.
 */
export const ZTronAddress = z
  .string()
  .trim()
  .regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'Withdrawal address format error')
  .describe('USDT TRC20 address');

export const ZWithdrawAmount = boundedDecimal(ZUsdt, { min: MIN_WITHDRAW_USDT });
export const ZTransferAmount = boundedDecimal(ZUsdt, { min: MIN_TRANSFER_USDT });

export const ZWithdrawal = z.object({
  id: z.string(),
  type: z.enum(['withdraw', 'withdraw_exchange']),
  status: z.enum(['pending', 'approved', 'broadcast', 'confirmed', 'rejected', 'failed']),
  amount: ZUsdt.describe('debited from main, network fee included'),
  networkFee: ZUsdt,
  receives: ZUsdt.describe('amount − networkFee, what arrives on chain'),
  address: z.string(),
  txid: z.string().nullable(),
  reason: z.string().nullable().describe('rejected/failed: why (the amount was refunded)'),
  waitingReason: z
    .enum(['hot_wallet_usdt', 'hot_wallet_trx', 'fee_above_max'])
    .nullable()
    .describe(
      "approved, not sent yet: it waits for the platform's wallet (too little USDT, or TRX for the network fee, or the fee above the operator's maximum) and goes out once it is topped up",
    ),
  reviewReason: z
    .string()
    .nullable()
    .describe('pending: why it waits for an operator (e.g. over the 24 h allowance)'),
  releaseAt: ZIsoDateTime.nullable().describe(
    'approved: not sent before this instant (a freeze can still stop it)',
  ),
  createdAt: ZIsoDateTime,
  updatedAt: ZIsoDateTime,
});
export type Withdrawal = z.output<typeof ZWithdrawal>;

/** A withdrawal freeze in force (docs/wallet.md#freeze). */
export const ZWithdrawFreeze = z.object({
  since: ZIsoDateTime,
  liftableFrom: ZIsoDateTime.describe('the user may lift it from then; support at any time'),
});

/** The rolling 24 h auto-approve allowance (docs/wallet.md#allowance). */
export const ZWithdrawAllowance = z.object({
  limit: ZUsdt,
  used: ZUsdt.describe('withdrawals of the last 24 h that count against it'),
  left: ZUsdt.describe('a withdrawal up to this is approved without an operator'),
});
