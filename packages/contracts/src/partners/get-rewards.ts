import { z } from 'zod';
import { defineEndpoint, ZIsoDate, ZUsdt } from '../core';
import { documented } from '../errors';
import { ZResolvedRange, ZRewardPeriod } from '../periods';

export const ZRewardDay = z.object({
  date: ZIsoDate,
  referral: ZUsdt,
  matching: ZUsdt,
  networkExpansion: ZUsdt,
  total: ZUsdt,
});

/** My-rewards screen: bonus totals by kind for a period (default today) and per day, newest first. */
export const getRewards = defineEndpoint({
  id: 'partners.getRewards',
  method: 'POST',
  path: '/partners/my_rewards',
  summary: 'Rewards by kind for a period',
  tags: ['partners'],
  auth: true,
  query: z.object({ period: ZRewardPeriod }),
  response: z.object({
    period: z.string().describe('as requested'),
    range: ZResolvedRange,
    total: ZUsdt,
    referral: ZUsdt,
    matching: ZUsdt,
    networkExpansion: ZUsdt,
    days: z.array(ZRewardDay).describe('only days with a reward'),
  }),
  errors: { 400: documented('VALIDATION'), 401: documented('UNAUTHORIZED') },
});
