import { z } from 'zod';
import { defineEndpoint, ZIsoDate, ZPct } from '../core';
import { documented } from '../errors';
import { ZDayParam } from '../periods';

/** Minimum number of bots a coin needs to be rated, so one user's result is never exposed. */
export const COIN_RATING_MIN_BOTS = 3;

export const ZRatedCoin = z.object({
  rank: z.number().int().describe('1 = best'),
  coin: z.string(),
  profitPct: ZPct.describe('Σ realized PnL / Σ committed capital of all bots on the coin that day × 100'),
  closedTrades: z.number().int(),
  bots: z.number().int().describe('active coin bots on the platform'),
  inPortfolio: z.boolean(),
});

/**
 * Platform-wide coin rating for a UTC day (what coins earned across all users' bots), to help
 * choose coins; the user's own per-coin figures are /home/pnl_daily_coins.
 */
export const getCoinRating = defineEndpoint({
  id: 'home.getCoinRating',
  method: 'GET',
  path: '/home/coin_rating',
  summary: 'Platform-wide coin rating for a day',
  tags: ['home'],
  auth: true,
  query: z.object({ date: ZDayParam }),
  response: z.object({ date: ZIsoDate, coins: z.array(ZRatedCoin).max(100) }),
  errors: { 400: documented('VALIDATION'), 401: documented('UNAUTHORIZED') },
});
