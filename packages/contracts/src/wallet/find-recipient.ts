import { z } from 'zod';
import { defineEndpoint, ZIdInt, ZUidParam } from '../core';
import { documented } from '../errors';

/** A transfer recipient as the sender may see it: the UID and the username masked. */
export const ZMaskedRecipient = z.object({
  uid: ZIdInt,
  maskedUsername: z
    .string()
    .nullable()
    .describe('the username with its middle hidden, e.g. de…er (docs/wallet.md#internal-transfer)'),
});

/**
 * Confirms a UID for the internal transfer screen before the user confirms
 * (docs/wallet.md#internal-transfer): the recipient's username masked (`@de…er`), never whole, so
 * the sequential UIDs cannot be turned into a directory. The same refusals as the transfer itself;
 * UIDs nobody has are budgeted per user and day (RECIPIENT_LOOKUPS_EXHAUSTED).
 */
export const findRecipient = defineEndpoint({
  id: 'wallet.findRecipient',
  method: 'POST',
  path: '/wallet/recipient',
  summary: 'Look up the recipient of an internal transfer by UID',
  tags: ['wallet'],
  auth: true,
  rateLimit: { max: 1, windowMs: 1000 },
  query: z.object({ uid: ZUidParam.describe('UID of the recipient') }),
  response: ZMaskedRecipient,
  errors: {
    400: documented('VALIDATION', 'TRANSFER_TO_SELF'),
    401: documented('UNAUTHORIZED'),
    404: documented('TRANSFER_RECIPIENT_MISSING'),
    429: documented('RATE_LIMITED', 'RECIPIENT_LOOKUPS_EXHAUSTED'),
  },
});
