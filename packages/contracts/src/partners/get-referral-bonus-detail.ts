import { z } from 'zod';
import { defineEndpoint, ZIsoDate, ZIsoDateTime, ZPct, ZUsdt } from '../core';
import { documented } from '../errors';
import { ZDayParam } from '../periods';
import { ZPartnerRef } from './partner';

export const ZReferralBonusItem = z.object({
  from: ZPartnerRef,
  line: z.number().int().min(1).max(3),
  licenseLevel: z.string().describe('licence the partner bought'),
  purchaseAmount: ZUsdt,
  ratePct: ZPct,
  amount: ZUsdt,
  paid: z.boolean().describe("false: the caller's licence was not active, the share went to the house"),
  at: ZIsoDateTime,
});

/** Referral bonus of one UTC day (default today), per licence payment of lines 1–3. */
export const getReferralBonusDetail = defineEndpoint({
  id: 'partners.getReferralBonusDetail',
  method: 'POST',
  path: '/partners/referral_bonus/detail',
  summary: 'Referral bonus of a day, per payment',
  tags: ['partners'],
  auth: true,
  query: z.object({ date: ZDayParam }),
  response: z.object({ date: ZIsoDate, total: ZUsdt, items: z.array(ZReferralBonusItem) }),
  errors: { 400: documented('VALIDATION'), 401: documented('UNAUTHORIZED') },
});
