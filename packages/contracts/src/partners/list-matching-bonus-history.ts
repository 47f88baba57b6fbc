import { z } from 'zod';
import { defineEndpoint, paged, ZCursor, ZLimit, ZPage, ZUsdt } from '../core';
import { documented } from '../errors';
import { ZBonusDay } from './partner';

/** Matching bonus per day, newest first, days with a bonus only. */
export const listMatchingBonusHistory = defineEndpoint({
  id: 'partners.listMatchingBonusHistory',
  method: 'POST',
  path: '/partners/matching_bonus/history',
  summary: 'Matching bonus history by day',
  tags: ['partners'],
  auth: true,
  query: z.object({ page: ZPage, limit: ZLimit, cursor: ZCursor }),
  response: paged(ZBonusDay).extend({ totalAmount: ZUsdt.describe('all time') }),
  errors: { 400: documented('VALIDATION'), 401: documented('UNAUTHORIZED') },
});
