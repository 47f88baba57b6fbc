import { z } from 'zod';
import { defineEndpoint, ZPct, ZSignedUsdt, ZUsdt } from '../core';
import { documented } from '../errors';
import { ZCoinProfitPeriod, ZCoinProfitPeriodName } from '../periods';
import { ZPortfolioCoin } from './coin-bot';

/** Portfolio screen: every coin with its settings, state and stats, plus totals and licence room. */
export const getPortfolio = defineEndpoint({
  id: 'portfolio.getPortfolio',
  method: 'POST',
  path: '/portfolio/',
  summary: 'Portfolio list with per-coin settings, state and stats',
  tags: ['portfolio'],
  auth: true,
  query: z.object({ period: ZCoinProfitPeriod }),
  response: z.object({
    period: ZCoinProfitPeriodName,
    dryAll: z.boolean(),
    coins: z.array(ZPortfolioCoin).describe('in the order the user added them'),
    totals: z.object({
      committedCapital: ZUsdt.describe('Σ orderSize × maxTrades'),
      invested: ZUsdt.describe('Σc of all open lots'),
      unrealizedPnl: ZSignedUsdt,
      realizedPnl: ZSignedUsdt.describe('all time'),
      periodPnl: ZSignedUsdt,
      periodPnlPct: ZPct,
      openDeals: z.number().int(),
    }),
    limits: z.object({
      coinsUsed: z.number().int(),
      coinsLimit: z.number().int().describe('coins of the current licence'),
      balanceLimit: ZUsdt.describe('licence balance limit for committed capital'),
    }),
  }),
  errors: { 400: documented('VALIDATION'), 401: documented('UNAUTHORIZED') },
});
