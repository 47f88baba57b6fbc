import { z } from 'zod';
import { ZIsoDate, ZMonth } from './core';

/**
 * Period parameters. Keywords are resolved by the server in UTC; every response that takes a
 * period echoes the concrete range it used (`ZResolvedRange`), so cached data is keyed by what the
 * client asked and labelled by what the server computed.
 */

/** One UTC day: `today`, `yesterday` or `YYYY-MM-DD`. Default `today` (docs/product.md#limits). */
export const ZDayParam = z
  .union([z.enum(['today', 'yesterday']), ZIsoDate])
  .default('today')
  .describe('today | yesterday | YYYY-MM-DD (UTC)');

/** Window of a coin's profit figures (panel "coin profit", default `day`, docs/product.md#limits). */
export const ZCoinProfitPeriodName = z
  .enum(['day', 'week', 'month', 'year', 'all'])
  .describe('day = since 00:00 UTC, week/month/year = rolling 7/30/365 days, all = since start');
export const ZCoinProfitPeriod = ZCoinProfitPeriodName.default('day');
export type CoinProfitPeriod = z.output<typeof ZCoinProfitPeriodName>;

/** Partner figures are per calendar month (docs/product.md#limits: default current_month). */
export const ZPartnerPeriod = z
  .union([z.enum(['current_month', 'last_month']), ZMonth])
  .default('current_month')
  .describe('current_month | last_month | YYYY-MM (UTC calendar month)');

/** Rewards and bonuses: a day, a month or everything (docs/product.md#limits: default today). */
export const ZRewardPeriod = z
  .union([z.enum(['today', 'yesterday', 'current_month', 'last_month', 'all']), ZIsoDate, ZMonth])
  .default('today')
  .describe('today | yesterday | current_month | last_month | all | YYYY-MM-DD | YYYY-MM (UTC)');

/** The concrete inclusive UTC date range a period keyword resolved to. */
export const ZResolvedRange = z.object({
  from: ZIsoDate.nullable().describe('first day, null for `all`'),
  to: ZIsoDate.describe('last day (inclusive)'),
});
