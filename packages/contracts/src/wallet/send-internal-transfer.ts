import { z } from 'zod';
import { defineEndpoint, ZIdempotencyHeaders, ZUidParam } from '../core';
import { documented } from '../errors';
import { ZMaskedRecipient } from './find-recipient';
import { ZBalances, ZTransaction } from './transaction';
import { ZTransferAmount } from './withdrawal';

/**
 * Sends `summ` from the main balance to another user by UID (`to_user`), instantly, no fee; a retry
 * with the same `Idempotency-Key` sends once.
 */
export const sendInternalTransfer = defineEndpoint({
  id: 'wallet.sendInternalTransfer',
  method: 'POST',
  path: '/wallet/inner_transaction',
  summary: 'Transfer USDT to another user by UID',
  tags: ['wallet'],
  auth: true,
  query: z.object({
    summ: ZTransferAmount.describe('USDT, at least 1'),
    to_user: ZUidParam.describe('UID of the recipient'),
  }),
  headers: ZIdempotencyHeaders,
  response: z.object({
    transaction: ZTransaction.describe('the transfer_out entry'),
    recipient: ZMaskedRecipient,
    balances: ZBalances,
  }),
  invalidates: ['wallet.getWallet'],
  errors: {
    400: documented('VALIDATION', 'TRANSFER_TO_SELF'),
    401: documented('UNAUTHORIZED'),
    404: documented('TRANSFER_RECIPIENT_MISSING'),
    409: documented('REQUEST_CONFLICT'),
    422: documented('INSUFFICIENT_FUNDS'),
    429: documented('RECIPIENT_LOOKUPS_EXHAUSTED'),
  },
});
