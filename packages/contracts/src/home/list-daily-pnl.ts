import { z } from 'zod';
import { defineEndpoint, paged, ZCursor, ZIsoDate, ZLimit, ZPage, ZSignedUsdt, ZUsdt } from '../core';
import { documented } from '../errors';

export const ZDailyPnl = z.object({
  date: ZIsoDate,
  realizedPnl: ZSignedUsdt.describe('net of exchange fees, before the platform fee'),
  tradeFee: ZUsdt.describe('platform trading fee charged that day'),
  closedTrades: z.number().int(),
  profitableTrades: z.number().int(),
});

/** PnL statistics per UTC day, newest first; only days with closed trades. */
export const listDailyPnl = defineEndpoint({
  id: 'home.listDailyPnl',
  method: 'GET',
  path: '/home/pnl/daily',
  summary: 'Realized PnL per day',
  tags: ['home'],
  auth: true,
  query: z.object({ page: ZPage, limit: ZLimit, cursor: ZCursor }),
  response: paged(ZDailyPnl),
  errors: { 400: documented('VALIDATION'), 401: documented('UNAUTHORIZED') },
});
