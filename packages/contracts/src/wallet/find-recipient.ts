import { z } from 'zod';
import { defineEndpoint, ZIdInt, ZUid } from '../core';
import { documented } from '../errors';

/**
 * Who a UID is, for the internal transfer screen to show the recipient before the user confirms
 * (docs/wallet.md#internal-transfer). The same refusals as the transfer itself.
 */
export const findRecipient = defineEndpoint({
  id: 'wallet.findRecipient',
  method: 'POST',
  path: '/wallet/recipient',
  summary: 'Look up the recipient of an internal transfer by UID',
  tags: ['wallet'],
  auth: true,
  rateLimit: { max: 1, windowMs: 1000 },
  query: z.object({ uid: ZUid.describe('UID of the recipient') }),
  response: z.object({ uid: ZIdInt, username: z.string().nullable() }),
  errors: {
    400: documented('VALIDATION', 'TRANSFER_TO_SELF'),
    401: documented('UNAUTHORIZED'),
    404: documented('TRANSFER_RECIPIENT_MISSING'),
    429: documented('RATE_LIMITED'),
  },
});
