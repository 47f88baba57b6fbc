import { z } from 'zod';
import { defineEndpoint, paged, ZCursor, ZIsoDateTime, ZLimit, ZPage, ZUsdt } from '../core';
import { documented } from '../errors';
import { ZBalances, ZTransaction, ZTransactionType } from './transaction';
import { ZWithdrawAllowance, ZWithdrawal, ZWithdrawFreeze } from './withdrawal';

/**
 * Wallet screen: balances, addresses, pending withdrawals and the transactions of the last `days`
 * days (default 30), newest first, paged for load-more: by `cursor` (the previous answer's
 * `transactions.nextCursor`), which stays exact while new transactions arrive; `page` is the
 * spec's offset paging, kept for compatibility (docs/decisions.md#lists-paged-by-cursor-issue-22).
 */
export const getWallet = defineEndpoint({
  id: 'wallet.getWallet',
  method: 'POST',
  path: '/wallet',
  summary: 'Wallet balances, addresses and transactions',
  tags: ['wallet'],
  auth: true,
  rateLimit: { max: 1, windowMs: 2000 },
  query: z.object({
    days: z.coerce.number().int().min(1).max(366).default(30),
    page: ZPage,
    limit: ZLimit,
    cursor: ZCursor,
    type: ZTransactionType.optional().describe('only this transaction type'),
  }),
  response: z.object({
    balances: ZBalances,
    network: z.literal('TRC20'),
    token: z.literal('USDT'),
    depositAddress: z.string().nullable().describe('null until create_wallet'),
    withdrawAddress: z.string().nullable(),
    withdrawAddressUsableFrom: ZIsoDateTime.nullable().describe(
      'a new or changed address is usable from this instant (null: at once)',
    ),
    allowance: ZWithdrawAllowance,
    frozen: ZWithdrawFreeze.nullable().describe('withdrawals frozen: refused until lifted'),
    releaseDelayS: z.number().int().describe('an approved withdrawal waits this long before it is sent'),
    minDeposit: ZUsdt,
    minWithdraw: ZUsdt,
    withdrawFee: ZUsdt.describe('network fee charged per withdrawal'),
    pendingWithdrawals: z.array(ZWithdrawal).describe('pending, approved or broadcast'),
    transactions: paged(ZTransaction),
  }),
  errors: {
    400: documented('VALIDATION'),
    401: documented('UNAUTHORIZED'),
    429: documented('RATE_LIMITED'),
  },
});
