import { z } from 'zod';
import { defineEndpoint, ZIsoDate, ZSignedUsdt, ZUsdt } from '../core';
import { documented } from '../errors';
import { ZDayParam } from '../periods';

export const ZCoinDayPnl = z.object({
  coin: z.string(),
  realizedPnl: ZSignedUsdt,
  tradeFee: ZUsdt,
  closedTrades: z.number().int(),
  profitableTrades: z.number().int(),
  buys: z.number().int().describe('lots opened that day'),
});

/** One UTC day's PnL per coin (pnl-stat screen), best coin first; coins removed since included. */
export const getDailyCoinsPnl = defineEndpoint({
  id: 'home.getDailyCoinsPnl',
  method: 'GET',
  path: '/home/pnl_daily_coins',
  summary: 'Realized PnL per coin for one day',
  tags: ['home'],
  auth: true,
  query: z.object({ target_date: ZDayParam }),
  response: z.object({
    date: ZIsoDate,
    realizedPnl: ZSignedUsdt,
    tradeFee: ZUsdt,
    coins: z.array(ZCoinDayPnl),
  }),
  errors: { 400: documented('VALIDATION'), 401: documented('UNAUTHORIZED') },
});
