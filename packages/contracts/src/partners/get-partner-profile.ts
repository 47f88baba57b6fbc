import { z } from 'zod';
import { defineEndpoint, ZIsoDateTime, ZMonth, ZUid } from '../core';
import { documented } from '../errors';
import { ZPartnerMeasures, ZPartnerRef } from './partner';

/** Card of one partner of the caller's downline: who they are, their licence and this month's team. */
export const getPartnerProfile = defineEndpoint({
  id: 'partners.getPartnerProfile',
  method: 'POST',
  path: '/partners/my_partners/profile',
  summary: 'Profile of one partner in the downline',
  tags: ['partners'],
  auth: true,
  rateLimit: { max: 1, windowMs: 1500 },
  query: z.object({ required_id: ZUid.describe('UID of the partner') }),
  response: ZPartnerRef.extend({
    lastName: z.string().nullable(),
    sponsor: ZPartnerRef.nullable(),
    line: z.number().int(),
    licenseLevel: z.string(),
    licenseActive: z.boolean(),
    licenseActiveUntil: ZIsoDateTime,
    registeredAt: ZIsoDateTime,
    trading: z.boolean(),
    coins: z.number().int().describe('coins in their portfolio'),
    directPartners: z.number().int(),
    teamSize: z.number().int(),
    month: ZMonth,
    measures: ZPartnerMeasures.describe("the partner's own measures for the current month"),
  }),
  errors: {
    400: documented('VALIDATION'),
    401: documented('UNAUTHORIZED'),
    404: documented('PARTNER_NOT_FOUND'),
    429: documented('RATE_LIMITED'),
  },
});
