import { z } from 'zod';
import { ZIsoDateTime, ZPct, ZUsdt } from '../core';

/** Licence level name. Defaults FREE, PRO1…PRO4; the operator's table may add levels. */
export const ZLicenseLevel = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z][A-Z0-9_]{1,15}$/, 'must be a license level, e.g. PRO1')
  .describe('license level, e.g. FREE, PRO1');

export {
  DEFAULT_LICENSE_LEVELS,
  FREE_LICENSE_DAYS,
  RENEWAL_DISCOUNT_PCT,
  RENEWAL_WINDOW_DAYS,
} from '@gridbot/domain/license-constants';

/** The user's licence (profile "current license", "active until", limits). */
export const ZLicense = z.object({
  level: z.string(),
  rank: z.number().int().describe('0 = FREE, 1 = PRO1, …; compares levels'),
  paid: z.boolean(),
  activeFrom: ZIsoDateTime,
  activeUntil: ZIsoDateTime,
  expired: z.boolean().describe('expired: bots dry, start refused until upgrade or renewal'),
  daysLeft: z.number().int().describe('whole days until activeUntil, 0 when expired'),
  balanceLimit: ZUsdt.describe('max committed capital Σ orderSize × maxTrades'),
  coins: z.number().int().describe('max coins in the portfolio (trading pairs)'),
  matchingGenerations: z.number().int(),
  renewal: z.object({
    available: z
      .boolean()
      .describe(
        'paid licence and activeUntil − 30 days ≤ now < activeUntil; an expired one is bought again instead',
      ),
    availableFrom: ZIsoDateTime.nullable().describe(
      'activeUntil − 30 days; null for FREE, which cannot be renewed',
    ),
    price: ZUsdt.nullable().describe('yearly price with the renewal discount'),
    discountPct: ZPct,
    newActiveUntil: ZIsoDateTime.nullable().describe(
      'activeUntil + 365 days; null for FREE and once expired',
    ),
  }),
});
export type License = z.output<typeof ZLicense>;

/** Licence levels the user can buy now and what each costs them (upgrade = price difference). */
export const ZLicenseOffer = z.object({
  level: z.string(),
  rank: z.number().int(),
  yearlyPrice: ZUsdt,
  priceToPay: ZUsdt.describe('difference from an unexpired paid licence, else the full price'),
  balanceLimit: ZUsdt,
  coins: z.number().int(),
  matchingGenerations: z.number().int(),
  activeUntil: ZIsoDateTime.describe('expiry after buying: unchanged on an upgrade, else now + 365 days'),
  current: z.boolean(),
  available: z
    .boolean()
    .describe(
      'false for the current and lower levels while the licence runs; every paid level once a paid one expired',
    ),
});
