import { z } from 'zod';
import { defineEndpoint, ZIdempotencyHeaders } from '../core';
import { documented } from '../errors';
import { ZBalances, ZTransaction } from './transaction';
import { ZTransferAmount } from './withdrawal';

/** Moves `summ` from the main to the fee balance (transaction type deposit_balance). */
export const topUpFeeBalance = defineEndpoint({
  id: 'wallet.topUpFeeBalance',
  method: 'POST',
  path: '/wallet/add_money',
  summary: 'Top up the trading-fee balance from the main balance',
  tags: ['wallet'],
  auth: true,
  query: z.object({ summ: ZTransferAmount.describe('USDT, at least 1') }),
  headers: ZIdempotencyHeaders,
  response: z.object({ balances: ZBalances, transaction: ZTransaction }),
  invalidates: ['wallet.getWallet', 'home.getPanel'],
  errors: {
    400: documented('VALIDATION'),
    401: documented('UNAUTHORIZED'),
    409: documented('REQUEST_CONFLICT'),
    422: documented('INSUFFICIENT_FUNDS'),
  },
});
