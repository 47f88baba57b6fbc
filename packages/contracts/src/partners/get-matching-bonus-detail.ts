import { z } from 'zod';
import { defineEndpoint, ZIsoDate, ZPct, ZUsdt } from '../core';
import { documented } from '../errors';
import { ZDayParam } from '../periods';
import { ZPartnerRef } from './partner';

export const ZMatchingBonusItem = z.object({
  from: ZPartnerRef,
  generation: z.number().int().min(1).max(3),
  tradeFee: ZUsdt.describe("the partner's trading fees that day"),
  ratePct: ZPct,
  amount: ZUsdt,
});

/**
 * Matching bonus of one UTC day (default today), per partner. It is credited once the day closes,
 * so today's figures are `pending`.
 */
export const getMatchingBonusDetail = defineEndpoint({
  id: 'partners.getMatchingBonusDetail',
  method: 'POST',
  path: '/partners/matching_bonus/detail',
  summary: 'Matching bonus of a day, per partner',
  tags: ['partners'],
  auth: true,
  query: z.object({ date: ZDayParam }),
  response: z.object({
    date: ZIsoDate,
    status: z.enum(['credited', 'pending']),
    matchingGenerations: z.number().int().describe("generations the caller's licence pays"),
    total: ZUsdt,
    items: z.array(ZMatchingBonusItem),
  }),
  errors: { 400: documented('VALIDATION'), 401: documented('UNAUTHORIZED') },
});
