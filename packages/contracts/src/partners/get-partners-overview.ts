import { z } from 'zod';
import { defineEndpoint, ZMonth, ZUsdt } from '../core';
import { documented } from '../errors';
import { ZPartnerMeasures, ZPartnerRef } from './partner';

/** Partners tab: sponsor (upline), team size, referral link, rewards and this month's measures. */
export const getPartnersOverview = defineEndpoint({
  id: 'partners.getOverview',
  method: 'GET',
  path: '/partners/',
  summary: 'Partner programme overview',
  tags: ['partners'],
  auth: true,
  response: z.object({
    sponsor: ZPartnerRef.extend({ licenseLevel: z.string() }).nullable().describe('null for the root'),
    referralCode: z.string(),
    referralLink: z.string().describe('t.me/<bot>?startapp=ref_<code>'),
    team: z.object({
      line1: z.number().int(),
      line2: z.number().int(),
      line3: z.number().int(),
      total: z.number().int().describe('whole downline'),
    }),
    rewards: z.object({
      today: ZUsdt,
      currentMonth: ZUsdt,
      total: ZUsdt,
    }),
    ranking: z.object({
      month: ZMonth,
      newPro1Partners: z.number().int().describe('new personal partners at PRO1 or higher this month'),
      required: z.number().int(),
      qualified: z.boolean(),
    }),
    month: ZMonth,
    measures: ZPartnerMeasures.describe('current month'),
  }),
  errors: { 401: documented('UNAUTHORIZED') },
});
