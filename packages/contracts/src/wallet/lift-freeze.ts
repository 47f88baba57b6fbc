import { z } from 'zod';
import { defineEndpoint, ZIsoDateTime } from '../core';
import { documented } from '../errors';

/**
 * Lifts the user's withdrawal freeze, allowed from WITHDRAW_ADDRESS_LOCK_HOURS after it began
 * (docs/wallet.md#freeze); before that FREEZE_LIFT_TOO_EARLY names when. Support can lift it any time.
 */
export const liftFreeze = defineEndpoint({
  id: 'wallet.liftFreeze',
  method: 'POST',
  path: '/wallet/unfreeze',
  summary: 'Lift the withdrawal freeze',
  tags: ['wallet'],
  auth: true,
  rateLimit: { max: 1, windowMs: 1000 },
  response: z.object({ liftedAt: ZIsoDateTime }),
  invalidates: ['wallet.getWallet'],
  errors: {
    401: documented('UNAUTHORIZED'),
    409: documented('NOT_FROZEN'),
    423: documented('FREEZE_LIFT_TOO_EARLY'),
    429: documented('RATE_LIMITED'),
  },
});
