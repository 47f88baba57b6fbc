import { z } from 'zod';
import { defineEndpoint, paged, ZCursor, ZLimit, ZPage, ZUsdt } from '../core';
import { documented } from '../errors';
import { ZBonusDay } from './partner';

/** Referral bonus per day, newest first, days with a bonus only. */
export const listReferralBonusHistory = defineEndpoint({
  id: 'partners.listReferralBonusHistory',
  method: 'POST',
  path: '/partners/referral_bonus/history',
  summary: 'Referral bonus history by day',
  tags: ['partners'],
  auth: true,
  query: z.object({ page: ZPage, limit: ZLimit, cursor: ZCursor }),
  response: paged(ZBonusDay).extend({ totalAmount: ZUsdt.describe('all time') }),
  errors: { 400: documented('VALIDATION'), 401: documented('UNAUTHORIZED') },
});
