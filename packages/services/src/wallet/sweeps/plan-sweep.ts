import { fromMicro, toMicro } from '@gridbot/ledger';
import type { HotWallet } from '../chain/hot-wallet';
import {
  feeLimitOf,
  feeLimitSettingsOf,
  type ResourcesLeft,
  resourcesLeftOf,
  TRX_TRANSFER_BYTES,
  trxNeededFor,
  USDT_TRANSFER_BYTES,
} from '../chain/network-fees';
import type { ChainContext } from '../chain/scan-deposits';
import type { ChainFees, NodeAccount, TronNodeClient } from '../chain/tron-node-client';
import { listSweepable } from './queue-sweeps';

/** What sweeping one address takes now: where to, the energy, the TRX to send it, what it burns. */
export type SweepPlan = {
  address: string;
  /** micro-USDT: credited, unswept and on the address. */
  amount: bigint;
  destination: string;
  destinationKind: 'hot' | 'cold';
  /** The node's estimate for this transfer (more when the destination holds no USDT). */
  energy: number;
  feeLimitSun: bigint;
  /** TRX the address has, and what the hot wallet must send it first (0: enough already). */
  addressTrxSun: bigint;
  topupSun: bigint;
  /** TRX the top-up itself burns from the hot wallet (activation of a new account, bandwidth). */
  topupFeeSun: bigint;
  /** TRX the USDT transfer will burn (energy at the chain's price, bandwidth beyond the free one). */
  transferBurnSun: bigint;
  fees: ChainFees;
};

/** Not now: `cancel` when there is too little to sweep (nothing to wait for), else it may go later. */
export type PlanOutcome = { ok: true; plan: SweepPlan } | { ok: false; reason: string; cancel: boolean };

/**
 * How to sweep one address now (docs/wallet.md#sweeps). The amount is the credited USDT not swept
 * yet (never a pending deposit), at most what the address holds on chain; it goes to the hot
 * wallet, or to SWEEP_COLD_ADDRESS once the hot wallet holds SWEEP_HOT_CEILING_USDT. The transfer's
 * energy comes from the node's estimate for that recipient, its fee limit from the energy price
 * with the margin; the address must hold that much TRX (deposit addresses have no staked energy)
 * plus its bandwidth when the free allowance does not cover it — the top-up is the difference.
 */
export const planSweep = async (
  ctx: ChainContext,
  node: TronNodeClient,
  hot: Pick<HotWallet, 'address'>,
  input: { address: string; excludeSweep?: number },
): Promise<PlanOutcome> => {
  const minimum = toMicro(ctx.env.SWEEP_MIN_USDT);
  const [credited] = await listSweepable(ctx.prisma, {
    minimum: 1n,
    address: input.address,
    ...(input.excludeSweep !== undefined ? { excludeSweep: input.excludeSweep } : {}),
  });
  const [onChain, hotUsdt, fees, account] = await Promise.all([
    node.usdtBalance(input.address),
    node.usdtBalance(hot.address),
    node.chainFees(),
    node.account(input.address),
  ]);
  const sweepable = credited?.sweepable ?? 0n;
  const amount = sweepable < onChain ? sweepable : onChain;
  if (amount < minimum) {
    return {
      ok: false,
      reason: `${fromMicro(amount)} USDT to sweep, under SWEEP_MIN_USDT ${ctx.env.SWEEP_MIN_USDT}`,
      cancel: true,
    };
  }
  const cold = ctx.env.SWEEP_COLD_ADDRESS;
  const toCold = cold !== undefined && hotUsdt >= toMicro(ctx.env.SWEEP_HOT_CEILING_USDT);
  const destination = toCold ? cold : hot.address;
  const estimate = await node.estimateUsdtTransfer({ from: input.address, to: destination, units: amount });
  if (!estimate.ok) {
    return { ok: false, reason: `the node cannot estimate the transfer: ${estimate.reason}`, cancel: false };
  }
  const limit = feeLimitOf(estimate.energy, fees, feeLimitSettingsOf(ctx.env));
  if (limit.aboveMax)
    return { ok: false, reason: 'the network fee is above TRON_FEE_LIMIT_MAX_TRX', cancel: false };
  // An address never activated gets its free bandwidth with the top-up that activates it.
  const left = account.exists
    ? resourcesLeftOf(account)
    : { energy: 0, stakedNet: 0, freeNet: fees.freeNetLimit };
  const needed = trxNeededFor(left, limit.feeLimitSun, USDT_TRANSFER_BYTES, fees);
  const topupSun = needed > account.balanceSun ? needed - account.balanceSun : 0n;
  return {
    ok: true,
    plan: {
      address: input.address,
      amount,
      destination,
      destinationKind: toCold ? 'cold' : 'hot',
      energy: estimate.energy,
      feeLimitSun: limit.feeLimitSun,
      addressTrxSun: account.balanceSun,
      topupSun,
      topupFeeSun: 0n,
      transferBurnSun: transferBurn(left, estimate.energy, fees),
      fees,
    },
  };
};

/** What the transfer itself burns from a deposit address (no staked energy: all of it). */
const transferBurn = (left: ResourcesLeft, energy: number, fees: ChainFees): bigint => {
  const bandwidthFree = left.stakedNet >= USDT_TRANSFER_BYTES || left.freeNet >= USDT_TRANSFER_BYTES;
  const energyBurnt = BigInt(Math.max(0, energy - left.energy)) * fees.energySun;
  return energyBurnt + (bandwidthFree ? 0n : BigInt(USDT_TRANSFER_BYTES) * fees.bandwidthSun);
};

/**
 * What the hot wallet's TRX transfer of the top-up burns (developers.tron.network "Resource
 * Model"; account creation): to an address never activated, getCreateNewAccountFeeInSystemContract
 * plus getCreateAccountFee unless staked bandwidth covers it (free bandwidth never does); to an
 * existing one, its bytes when neither staked nor free bandwidth covers them.
 */
export const topupFeeOf = (
  hotLeft: ResourcesLeft,
  recipient: Pick<NodeAccount, 'exists'>,
  fees: ChainFees,
): bigint => {
  if (!recipient.exists) {
    return fees.createNewAccountSun + (hotLeft.stakedNet >= TRX_TRANSFER_BYTES ? 0n : fees.createAccountSun);
  }
  const covered = hotLeft.stakedNet >= TRX_TRANSFER_BYTES || hotLeft.freeNet >= TRX_TRANSFER_BYTES;
  return covered ? 0n : BigInt(TRX_TRANSFER_BYTES) * fees.bandwidthSun;
};

/** The plan with the hot wallet's side filled in: the top-up's own cost, and whether it can pay. */
export const withTopupCost = async (
  node: TronNodeClient,
  hot: Pick<HotWallet, 'address'>,
  plan: SweepPlan,
): Promise<{ plan: SweepPlan; hotCanPay: boolean }> => {
  if (plan.topupSun === 0n) return { plan, hotCanPay: true };
  const [hotAccount, recipient] = await Promise.all([node.account(hot.address), node.account(plan.address)]);
  const topupFeeSun = topupFeeOf(resourcesLeftOf(hotAccount), recipient, plan.fees);
  return {
    plan: { ...plan, topupFeeSun },
    hotCanPay: hotAccount.balanceSun >= plan.topupSun + topupFeeSun,
  };
};
