import { z } from 'zod';
import { ZIdInt, ZIsoDate, ZIsoDateTime, ZUsdt } from '../core';

/** Referral bonus of each licence payment for lines 1–3, % (docs/product.md#roles, §9). */
export const REFERRAL_BONUS_PCTS = ['30', '8', '5'] as const;
/** Matching bonus of each trading fee for generations 1–3, % (docs/bonuses.md). */
export const MATCHING_BONUS_PCTS = ['10', '5', '3'] as const;
/** Network expansion: ≥ 2 new personal PRO1+ partners in a calendar month; 5 % of the month's pool. */
export const NETWORK_EXPANSION_MIN_PARTNERS = 2;
export const NETWORK_EXPANSION_PCT = '5';

/** A user as other users see them: never balances or keys. */
export const ZPartnerRef = z.object({
  uid: ZIdInt,
  username: z.string().nullable(),
  firstName: z.string(),
});

/**
 * Partner measures of a period (docs/product.md#data): volumes are licence purchases in USDT; registrations and
 * licence counts are partners.
 */
export const ZPartnerMeasures = z.object({
  personalVolume: ZUsdt.describe('licence purchases of line 1'),
  teamVolume: ZUsdt.describe('licence purchases of the whole downline'),
  generation1Volume: ZUsdt,
  generation2Volume: ZUsdt,
  generation3Volume: ZUsdt,
  newPersonalRegistrations: z.number().int(),
  newTeamRegistrations: z.number().int(),
  freeLicenseNonTrading: z.number().int().describe('downline on FREE with no running coin'),
  activatedLicenses: z.number().int().describe('paid licences bought or renewed in the downline'),
});
export type PartnerMeasures = z.output<typeof ZPartnerMeasures>;

/** One partner as lists and the tree show them. */
export const ZPartnerRow = ZPartnerRef.extend({
  line: z.number().int().describe('generation below the viewer, 1 = personally invited'),
  licenseLevel: z.string(),
  licenseActive: z.boolean(),
  registeredAt: ZIsoDateTime,
  trading: z.boolean().describe('at least one coin running'),
  directPartners: z.number().int(),
  teamSize: z.number().int().describe('whole downline'),
  personalVolume: ZUsdt.describe("the partner's own licence purchases in the period"),
});

/** A day of a bonus history (paged lists of referral and matching bonus). */
export const ZBonusDay = z.object({
  date: ZIsoDate,
  amount: ZUsdt,
  payments: z.number().int().describe('payments the bonus came from'),
  status: z.enum(['credited', 'pending']).describe('matching is credited daily after the day closes'),
});
