import { z } from 'zod';
import { defineEndpoint, ZIsoDate, ZSignedUsdt, ZUid } from '../core';
import { documented } from '../errors';

export const ZProfitPoint = z.object({
  date: ZIsoDate,
  realizedPnl: ZSignedUsdt.describe('realized PnL of that UTC day, all coins'),
  cumulativePnl: ZSignedUsdt.describe('running sum from the first point of the answer'),
  closedTrades: z.number().int(),
});

/**
 * Panel chart: one point per UTC day for the last `days` days, oldest first, days without trades
 * included with zero. The client reads `data.data`.
 */
export const getProfitChart = defineEndpoint({
  id: 'portfolio.getProfitChart',
  method: 'GET',
  path: '/portfolio/profit',
  summary: 'Daily profit chart of the user',
  tags: ['portfolio'],
  auth: true,
  query: z.object({
    user_id: ZUid.optional().describe("the caller's UID; any other UID is refused with 403"),
    days: z.coerce.number().int().min(1).max(366).default(30),
  }),
  response: z.object({ data: z.array(ZProfitPoint) }),
  errors: {
    400: documented('VALIDATION'),
    401: documented('UNAUTHORIZED'),
    403: documented('FORBIDDEN'),
  },
});
