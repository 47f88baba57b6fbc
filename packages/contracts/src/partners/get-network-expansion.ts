import { z } from 'zod';
import { defineEndpoint, ZIsoDate, ZIsoDateTime, ZMonth, ZPct, ZUsdt } from '../core';
import { documented } from '../errors';
import { ZPartnerPeriod } from '../periods';
import { ZPartnerRef } from './partner';

export const ZExpansionRegistration = ZPartnerRef.extend({
  line: z.number().int().min(1).max(3),
  registeredAt: ZIsoDateTime,
  licenseLevel: z.string(),
  licensePurchase: ZUsdt.describe('licence purchases this month, in the pool'),
  qualifying: z.boolean().describe('line 1 and PRO1 or higher bought this month'),
});

export const ZExpansionMonth = z.object({
  month: ZMonth,
  qualified: z.boolean(),
  qualifyingPartners: z.number().int(),
  pool: ZUsdt,
  bonus: ZUsdt,
  paidAt: ZIsoDateTime.nullable(),
});

/**
 * Network expansion bonus of a month (default the current one): progress towards qualifying,
 * the month's pool and projected bonus, the month's registrations, and the past months.
 */
export const getNetworkExpansion = defineEndpoint({
  id: 'partners.getNetworkExpansion',
  method: 'POST',
  path: '/partners/network_expansion/detail',
  summary: 'Network expansion bonus: progress, registrations and history',
  tags: ['partners'],
  auth: true,
  rateLimit: { max: 1, windowMs: 1500 },
  query: z.object({ period: ZPartnerPeriod }),
  response: z.object({
    month: ZMonth,
    requiredPartners: z.number().int(),
    qualifyingPartners: z.number().int(),
    qualified: z.boolean().describe('enough qualifying partners and licenseQualifies'),
    licenseQualifies: z
      .boolean()
      .describe(
        "the caller's own paid licence is active at the month's end: required to earn (FREE earns nothing)",
      ),
    ratePct: ZPct,
    pool: ZUsdt.describe('licence purchases this month by generation 1–3 partners registered this month'),
    projectedBonus: ZUsdt.describe('ratePct of the pool if qualified, else 0'),
    payoutDate: ZIsoDate.describe('the 1st of the next month'),
    registrations: z.array(ZExpansionRegistration),
    history: z.array(ZExpansionMonth).describe('past months, newest first, at most 12'),
  }),
  errors: {
    400: documented('VALIDATION'),
    401: documented('UNAUTHORIZED'),
    429: documented('RATE_LIMITED'),
  },
});
