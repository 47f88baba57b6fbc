import { z } from 'zod';
import { defineEndpoint, paged, ZCursor, ZLimit, ZMonth, ZPage, ZSignedUsdt, ZUsdt } from '../core';
import { documented } from '../errors';

export const ZMonthlyPnl = z.object({
  month: ZMonth,
  realizedPnl: ZSignedUsdt.describe('net of exchange fees, before the platform fee'),
  tradeFee: ZUsdt,
  closedTrades: z.number().int(),
  profitableTrades: z.number().int(),
  tradingDays: z.number().int().describe('days with at least one closed trade'),
});

/** PnL statistics per UTC calendar month, newest first. */
export const listMonthlyPnl = defineEndpoint({
  id: 'home.listMonthlyPnl',
  method: 'GET',
  path: '/home/pnl/monthly',
  summary: 'Realized PnL per month',
  tags: ['home'],
  auth: true,
  query: z.object({ page: ZPage, limit: ZLimit, cursor: ZCursor }),
  response: paged(ZMonthlyPnl),
  errors: { 400: documented('VALIDATION'), 401: documented('UNAUTHORIZED') },
});
