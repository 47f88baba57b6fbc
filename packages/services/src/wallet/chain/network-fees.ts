import type { Env } from '@gridbot/config';
import { toMicro } from '@gridbot/ledger';
import type { ChainFees, NodeAccount } from './tron-node-client';

/**
 * What a transfer costs on TRON (developers.tron.network, "Resource Model" and "Feelimit"): a USDT
 * transfer is a contract call that uses energy — staked energy first, the rest burnt at the chain's
 * energy price (getEnergyFee) — and bandwidth — its bytes taken whole from staked bandwidth or the
 * free daily allowance, else burnt at getTransactionFee sun a byte. Its fee_limit caps the energy
 * the whole call may use, in sun, staked energy included: set too low, the call fails OUT_OF_ENERGY
 * and burns what it used. Pure: the figures come from the node (tron-node-client.ts).
 */

/** Bytes of a signed USDT transfer (TronScan shows about 345) and of a TRX transfer (about 268). */
export const USDT_TRANSFER_BYTES = 345;
export const TRX_TRANSFER_BYTES = 268;

export type FeeLimitSettings = {
  /** TRON_FEE_LIMIT_MARGIN_PCT: added to the estimate (the dynamic energy model moves it). */
  marginPct: number;
  /** TRON_FEE_LIMIT_MAX_TRX in sun: never more. */
  maxSun: bigint;
};

export const feeLimitSettingsOf = (
  env: Pick<Env, 'TRON_FEE_LIMIT_MARGIN_PCT' | 'TRON_FEE_LIMIT_MAX_TRX'>,
): FeeLimitSettings => ({
  marginPct: env.TRON_FEE_LIMIT_MARGIN_PCT,
  // TRX has 6 decimals like USDT: sun are its micro-units.
  maxSun: toMicro(env.TRON_FEE_LIMIT_MAX_TRX),
});

/** Energy with the margin, rounded up. */
export const energyWithMargin = (energy: number, marginPct: number): bigint =>
  (BigInt(energy) * BigInt(100 + marginPct) + 99n) / 100n;

/**
 * A transfer's fee limit: estimated energy × price × (1 + margin), at most the configured maximum.
 * `aboveMax` when even the bare estimate costs more than the maximum: the call would fail
 * OUT_OF_ENERGY, so it must not be sent.
 */
export const feeLimitOf = (
  energy: number,
  fees: Pick<ChainFees, 'energySun'>,
  settings: FeeLimitSettings,
): { feeLimitSun: bigint; aboveMax: boolean } => {
  const wanted = energyWithMargin(energy, settings.marginPct) * fees.energySun;
  return {
    feeLimitSun: wanted < settings.maxSun ? wanted : settings.maxSun,
    aboveMax: BigInt(energy) * fees.energySun > settings.maxSun,
  };
};

/** An account's resources left: staked energy, staked bandwidth, free bandwidth. */
export type ResourcesLeft = { energy: number; stakedNet: number; freeNet: number };

export const resourcesLeftOf = (account: NodeAccount): ResourcesLeft => ({
  energy: Math.max(0, account.energyLimit - account.energyUsed),
  stakedNet: Math.max(0, account.netLimit - account.netUsed),
  freeNet: account.exists ? Math.max(0, account.freeNetLimit - account.freeNetUsed) : 0,
});

/**
 * What a transfer of `energy` and `bytes` burns from an account with these resources left, and
 * the resources left after it (java-tron's order: staked bandwidth, then free, else burnt whole).
 */
export const transferCost = (
  left: ResourcesLeft,
  use: { energy: number; bytes: number },
  fees: Pick<ChainFees, 'energySun' | 'bandwidthSun'>,
): { burnSun: bigint; left: ResourcesLeft } => {
  const fromStake = Math.min(left.energy, use.energy);
  let burnSun = BigInt(use.energy - fromStake) * fees.energySun;
  let { stakedNet, freeNet } = left;
  if (stakedNet >= use.bytes) stakedNet -= use.bytes;
  else if (freeNet >= use.bytes) freeNet -= use.bytes;
  else burnSun += BigInt(use.bytes) * fees.bandwidthSun;
  return { burnSun, left: { energy: left.energy - fromStake, stakedNet, freeNet } };
};

/**
 * TRX a transfer from an account without staked energy needs on it to be sure to go through: its
 * fee limit (the most it may burn for energy) plus its bandwidth when no allowance covers it.
 */
export const trxNeededFor = (
  left: ResourcesLeft,
  feeLimitSun: bigint,
  bytes: number,
  fees: Pick<ChainFees, 'bandwidthSun'>,
): bigint => {
  const bandwidthFree = left.stakedNet >= bytes || left.freeNet >= bytes;
  return feeLimitSun + (bandwidthFree ? 0n : BigInt(bytes) * fees.bandwidthSun);
};
