import { z } from 'zod';
import { defineJob } from '../define-job';

/**
 * The partner programme's and licences' periodic work (docs/bonuses.md): pay the matching bonus
 * of closed days, pay the network expansion bonus of ended months, queue the licence notices of
 * the day. Each is idempotent, so the schedule may run it hourly and replicas may race.
 */
export const payMatchingBonusesJob = defineJob({
  name: 'bonus.matching-payout',
  version: 1,
  payload: z.object({}),
});

export const payNetworkExpansionJob = defineJob({
  name: 'bonus.network-expansion-payout',
  version: 1,
  payload: z.object({
    month: z
      .string()
      .regex(/^\d{4}-\d{2}$/)
      .optional(),
  }),
});

export const licenseNoticesJob = defineJob({
  name: 'license.notices',
  version: 1,
  payload: z.object({}),
});

/** The notices of API keys whose spot trading Binance ends (docs/security.md#exchange-keys). */
export const keyExpiryNoticesJob = defineJob({
  name: 'keys.expiry-notices',
  version: 1,
  payload: z.object({}),
});
