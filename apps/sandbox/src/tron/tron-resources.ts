/**
 * TRON's resource model as the sandbox charges it (developers.tron.network, "Resource Model" and
 * "Paying for resources"; java-tron's BandwidthProcessor, EnergyProcessor and ReceiptCapsule):
 *
 * - Bandwidth: every transaction uses its size in bytes, taken whole from the account's staked
 *   bandwidth, else from its free daily bandwidth (600), else burnt at `getTransactionFee` sun a
 *   byte. A transfer that creates the recipient's account uses staked bandwidth only, else burns
 *   `getCreateAccountFee`, and pays `getCreateNewAccountFeeInSystemContract` on top (1.1 TRX on
 *   mainnet without staked bandwidth).
 * - Energy: a contract call may use at most min(staked energy left + balance / price, fee_limit /
 *   price) energy (fee_limit caps the whole call, staked energy included). It uses staked energy
 *   first and burns TRX at `getEnergyFee` sun for the rest. A call that needs more than its limit
 *   fails OUT_OF_ENERGY and uses the whole limit.
 * - Used bandwidth and energy recover linearly over 24 hours of chain time.
 *
 * Staking is not modelled: the control API sets an account's energy and bandwidth limits directly
 * (what staking TRX for them would give).
 */

/** Chain parameters (`/wallet/getchainparameters`) at mainnet's values of 2025–2026. */
export const CHAIN_PARAMETERS = {
  getMaintenanceTimeInterval: 21_600_000,
  getCreateAccountFee: 100_000,
  getTransactionFee: 1000,
  getCreateNewAccountFeeInSystemContract: 1_000_000,
  getCreateNewAccountBandwidthRate: 1,
  getEnergyFee: 210,
  getFreeNetLimit: 600,
  getTotalEnergyLimit: 180_000_000_000,
  getTotalNetLimit: 43_200_000_000,
  getMaxFeeLimit: 15_000_000_000,
  getAllowTvmTransferTrc10: 1,
  getAllowMultiSign: 1,
} as const;

export const SUN_PER_ENERGY = BigInt(CHAIN_PARAMETERS.getEnergyFee);
export const SUN_PER_BYTE = BigInt(CHAIN_PARAMETERS.getTransactionFee);
export const FREE_NET_LIMIT = CHAIN_PARAMETERS.getFreeNetLimit;
/** The largest fee_limit java-tron accepts: 15,000 TRX. */
export const MAX_FEE_LIMIT_SUN = CHAIN_PARAMETERS.getMaxFeeLimit;

/**
 * Energy of Tether's `transfer` on mainnet (the dynamic energy model's current factor included):
 * about 64,285 to a recipient that holds USDT, about 130,285 to one that holds none (the contract
 * writes a new balance slot). A revert is charged like a transfer to a holder.
 */
export const ENERGY_TRANSFER_TO_HOLDER = 64_285;
export const ENERGY_TRANSFER_TO_EMPTY = 130_285;

/** Bytes a transaction takes (its protobuf with the signature), as TronScan reports them. */
export const BYTES_TRX_TRANSFER = 268;
export const BYTES_CONTRACT_CALL = 345;

/** Usage recovers linearly over this much chain time (java-tron: 28,800 slots of 3 s). */
export const RESOURCE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** One account: TRX and its resources (usage with the chain time it was last charged). */
export type Account = {
  balance: bigint;
  createTime: number;
  /** Energy and staked bandwidth per day (what staked TRX would give; set by the control API). */
  energyLimit: number;
  netLimit: number;
  energyUsage: number;
  energyTime: number;
  netUsage: number;
  netTime: number;
  freeNetUsage: number;
  freeNetTime: number;
};

export const newAccount = (balance: bigint, createTime: number): Account => ({
  balance,
  createTime,
  energyLimit: 0,
  netLimit: 0,
  energyUsage: 0,
  energyTime: 0,
  netUsage: 0,
  netTime: 0,
  freeNetUsage: 0,
  freeNetTime: 0,
});

/** What is still used of `usage` charged at `since`, at chain time `now` (linear recovery). */
export const usedNow = (usage: number, since: number, now: number): number => {
  const elapsed = now - since;
  if (usage <= 0 || elapsed >= RESOURCE_WINDOW_MS) return 0;
  if (elapsed <= 0) return usage;
  return Math.ceil((usage * (RESOURCE_WINDOW_MS - elapsed)) / RESOURCE_WINDOW_MS);
};

/** The account's resources at chain time `now`: limits, what is used and what is left. */
export const resourcesOf = (account: Account, now: number) => {
  const energyUsed = usedNow(account.energyUsage, account.energyTime, now);
  const netUsed = usedNow(account.netUsage, account.netTime, now);
  const freeNetUsed = usedNow(account.freeNetUsage, account.freeNetTime, now);
  return {
    energyLimit: account.energyLimit,
    energyUsed,
    energyLeft: Math.max(0, account.energyLimit - energyUsed),
    netLimit: account.netLimit,
    netUsed,
    netLeft: Math.max(0, account.netLimit - netUsed),
    freeNetLimit: FREE_NET_LIMIT,
    freeNetUsed,
    freeNetLeft: Math.max(0, FREE_NET_LIMIT - freeNetUsed),
  };
};

/** How a transaction's bandwidth is paid: from staked bandwidth, from the free one, or burnt. */
export type BandwidthBill =
  | { from: 'staked' | 'free'; bytes: number; burnSun: 0n }
  | { from: 'burn'; bytes: number; burnSun: bigint };

/**
 * The bandwidth bill of `bytes` (java-tron's order: staked, free, burn). A transaction creating an
 * account may not use free bandwidth and burns `getCreateAccountFee` instead of its bytes.
 */
export const bandwidthBill = (
  account: Account,
  bytes: number,
  now: number,
  createsAccount = false,
): BandwidthBill => {
  const left = resourcesOf(account, now);
  if (left.netLeft >= bytes) return { from: 'staked', bytes, burnSun: 0n };
  if (createsAccount) return { from: 'burn', bytes, burnSun: BigInt(CHAIN_PARAMETERS.getCreateAccountFee) };
  if (left.freeNetLeft >= bytes) return { from: 'free', bytes, burnSun: 0n };
  return { from: 'burn', bytes, burnSun: BigInt(bytes) * SUN_PER_BYTE };
};

/** The account after paying the bill (usage charged at `now`, burnt TRX taken). */
export const payBandwidth = (account: Account, bill: BandwidthBill, now: number): Account => {
  if (bill.from === 'staked') {
    return {
      ...account,
      netUsage: usedNow(account.netUsage, account.netTime, now) + bill.bytes,
      netTime: now,
    };
  }
  if (bill.from === 'free') {
    return {
      ...account,
      freeNetUsage: usedNow(account.freeNetUsage, account.freeNetTime, now) + bill.bytes,
      freeNetTime: now,
    };
  }
  return { ...account, balance: account.balance - bill.burnSun };
};

/** The most energy a call may use (java-tron's getAccountEnergyLimitWithFixRatio). */
export const energyLimitOf = (account: Account, feeLimitSun: bigint, now: number): number => {
  const fromBalance = account.balance / SUN_PER_ENERGY;
  const fromFeeLimit = feeLimitSun / SUN_PER_ENERGY;
  const available = BigInt(resourcesOf(account, now).energyLeft) + fromBalance;
  return Number(available < fromFeeLimit ? available : fromFeeLimit);
};

/** Pays `energy` used by a call: staked energy first, the rest burnt (ReceiptCapsule.payEnergyBill). */
export const payEnergy = (
  account: Account,
  energy: number,
  now: number,
): { account: Account; fromStake: number; burnSun: bigint } => {
  const fromStake = Math.min(energy, resourcesOf(account, now).energyLeft);
  const burnSun = BigInt(energy - fromStake) * SUN_PER_ENERGY;
  const charged =
    fromStake > 0
      ? { energyUsage: usedNow(account.energyUsage, account.energyTime, now) + fromStake, energyTime: now }
      : {};
  return { account: { ...account, ...charged, balance: account.balance - burnSun }, fromStake, burnSun };
};
