import { z } from 'zod';
import { defineEndpoint, ZIsoDateTime } from '../core';
import { documented } from '../errors';

/**
 * Ends every session of the caller's account, this one included ("sign out on all devices",
 * docs/security.md#sessions): every token issued before now is refused from the next request on,
 * and so is launch data signed before now; each device signs in again by reopening the mini app.
 */
export const logoutAll = defineEndpoint({
  id: 'auth.logoutAll',
  method: 'POST',
  path: '/auth/logout_all',
  summary: 'Sign out on all devices',
  tags: ['auth'],
  auth: true,
  rateLimit: { max: 1, windowMs: 5000 },
  response: z.object({
    ok: z.literal(true),
    endedAt: ZIsoDateTime.describe('sessions and launch data from before this instant are refused'),
  }),
  errors: {
    401: documented('UNAUTHORIZED'),
    429: documented('RATE_LIMITED'),
  },
});
