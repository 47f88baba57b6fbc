import { z } from 'zod';
import { defineEndpoint } from '../core';
import { documented } from '../errors';

/** Links page: the caller's referral links (the only way to register, docs/bonuses.md). */
export const getReferralLink = defineEndpoint({
  id: 'partners.getReferralLink',
  method: 'POST',
  path: '/partners/link',
  summary: 'Referral link of the user',
  tags: ['partners'],
  auth: true,
  rateLimit: { max: 1, windowMs: 1500 },
  response: z.object({
    referralCode: z.string(),
    miniAppLink: z.string().describe('https://t.me/<bot>?startapp=ref_<code>'),
    botLink: z.string().describe('https://t.me/<bot>?start=ref_<code>'),
    shareText: z.string().describe("invitation text in the caller's language"),
  }),
  errors: { 401: documented('UNAUTHORIZED'), 429: documented('RATE_LIMITED') },
});
