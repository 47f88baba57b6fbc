import { z } from 'zod';
import { defineEndpoint, paged, ZCursor, ZLimit, ZMonth, ZPage } from '../core';
import { documented } from '../errors';
import { ZPartnerPeriod, ZResolvedRange } from '../periods';
import { ZPartnerMeasures, ZPartnerRow } from './partner';

/**
 * My-partners screen for a calendar month: the measures of that month and the partners, newest
 * registration first. `line` narrows the list to one generation; without it, lines 1–3.
 */
export const listMyPartners = defineEndpoint({
  id: 'partners.listMyPartners',
  method: 'POST',
  path: '/partners/my_partners/:period',
  summary: 'Partners and partner measures of a month',
  tags: ['partners'],
  auth: true,
  params: z.object({ period: ZPartnerPeriod }),
  query: z.object({
    page: ZPage,
    limit: ZLimit,
    cursor: ZCursor,
    line: z.coerce.number().int().min(1).max(3).optional(),
  }),
  response: z.object({
    period: z.string().describe('as requested'),
    month: ZMonth,
    range: ZResolvedRange,
    measures: ZPartnerMeasures,
    partners: paged(ZPartnerRow),
  }),
  errors: { 400: documented('VALIDATION'), 401: documented('UNAUTHORIZED') },
});
