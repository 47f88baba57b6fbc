import type { JobDefinition } from '../define-job';
import {
  keyExpiryNoticesJob,
  licenseNoticesJob,
  payMatchingBonusesJob,
  payNetworkExpansionJob,
} from './bonus';
import { reconcileCoinBotJob, scanPricesJob, sweepCoinBotsJob } from './grid';

/** Every job type: the queues whose depth /metrics and the operator summary report. */
export const ALL_JOBS: readonly JobDefinition[] = [
  reconcileCoinBotJob,
  scanPricesJob,
  sweepCoinBotsJob,
  payMatchingBonusesJob,
  payNetworkExpansionJob,
  licenseNoticesJob,
  keyExpiryNoticesJob,
];
