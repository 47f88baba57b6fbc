import { z } from 'zod';
import { defineEndpoint } from '../core';
import { documented } from '../errors';
import { ZWithdrawFreeze } from './withdrawal';

/**
 * "This wasn't me": freezes the user's withdrawals (docs/wallet.md#freeze). Every withdrawal not
 * yet sent is stopped and refunded; new withdrawals and address changes are refused until the
 * freeze is lifted. A second call answers the freeze already in force (`frozenNow` false).
 */
export const freezeWithdrawals = defineEndpoint({
  id: 'wallet.freezeWithdrawals',
  method: 'POST',
  path: '/wallet/freeze',
  summary: 'Freeze withdrawals (this was not me)',
  tags: ['wallet'],
  auth: true,
  rateLimit: { max: 1, windowMs: 1000 },
  response: z.object({
    frozen: ZWithdrawFreeze,
    frozenNow: z.boolean().describe('false: a freeze was already in force'),
    stopped: z.number().int().describe('withdrawals stopped and refunded by this freeze'),
  }),
  invalidates: ['wallet.getWallet'],
  errors: {
    401: documented('UNAUTHORIZED'),
    429: documented('RATE_LIMITED'),
  },
});
