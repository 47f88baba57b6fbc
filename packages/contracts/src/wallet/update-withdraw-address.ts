import { z } from 'zod';
import { defineEndpoint, ZIsoDateTime } from '../core';
import { documented } from '../errors';
import { ZTronAddress } from './withdrawal';

/** Replaces the saved withdrawal address; pending withdrawals keep the address they were made to. */
export const updateWithdrawAddress = defineEndpoint({
  id: 'wallet.updateWithdrawAddress',
  method: 'POST',
  path: '/wallet/update_withdraw_address',
  summary: 'Change the withdrawal address',
  tags: ['wallet'],
  auth: true,
  rateLimit: { max: 1, windowMs: 1500 },
  query: z.object({ address: ZTronAddress }),
  response: z.object({
    withdrawAddress: z.string(),
    usableFrom: ZIsoDateTime.describe('withdrawals to it are refused before this instant'),
  }),
  invalidates: ['wallet.getWallet'],
  errors: {
    400: documented(
      'WITHDRAW_ADDRESS_FORMAT',
      'WITHDRAW_ADDRESS_IS_DEPOSIT',
      'WITHDRAW_ADDRESS_CONTRACT',
      'WITHDRAW_ADDRESS_BLACK_HOLE',
      'WITHDRAW_ADDRESS_PLATFORM',
      'WITHDRAW_ADDRESS_PLATFORM_DEPOSIT',
    ),
    401: documented('UNAUTHORIZED'),
    422: documented('WITHDRAW_ADDRESS_MISSING'),
    423: documented('WITHDRAWALS_FROZEN'),
    429: documented('RATE_LIMITED'),
    503: documented('ADDRESS_CHECK_UNAVAILABLE'),
  },
});
