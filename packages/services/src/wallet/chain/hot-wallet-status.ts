import { fromMicro, toMicro } from '@gridbot/ledger';
import {
  hotWalletBandwidth,
  hotWalletEnergy,
  hotWalletReadTime,
  hotWalletTrx,
  hotWalletUsdt,
  tronEnergyPrice,
} from '@gridbot/metrics';
import { queueOperatorAlert } from '../../operators/queue-operator-alert';
import type { ResourcesLeft } from './network-fees';
import { resourcesLeftOf } from './network-fees';
import type { ChainContext } from './scan-deposits';
import type { ChainFees, TronNodeClient } from './tron-node-client';

/** The hot wallet as read from the node at one moment (docs/operations.md#hot-wallet). */
export type HotWalletReading = {
  address: string;
  /** micro-USDT and sun. */
  usdt: bigint;
  trxSun: bigint;
  /** Staked energy left and its daily limit. */
  energyLeft: number;
  energyLimit: number;
  left: ResourcesLeft;
  fees: ChainFees;
  readAt: Date;
};

let lastReading: HotWalletReading | undefined;

/** The last reading this process made (for /readyz's detail), or undefined before the first. */
export const lastHotWalletReading = (): HotWalletReading | undefined => lastReading;

/** Bandwidth left, staked and free (bytes). */
export const bandwidthLeftOf = (reading: Pick<HotWalletReading, 'left'>) =>
  reading.left.stakedNet + reading.left.freeNet;

/**
 * Reads the hot wallet: getaccount and getaccountresource (TRX, energy, bandwidth),
 * getchainparameters (prices) and the USDT contract's balanceOf — four node calls, so the watcher
 * does it at most every HOT_WALLET_CHECK_MS and right before signing withdrawals, never per block.
 * The reading is recorded (recordHotWalletReading) before it is returned.
 */
export const readHotWallet = async (
  ctx: ChainContext,
  node: TronNodeClient,
  address: string,
): Promise<HotWalletReading> => {
  const [account, fees, usdt] = await Promise.all([
    node.account(address),
    node.chainFees(),
    node.usdtBalance(address),
  ]);
  const left = resourcesLeftOf(account);
  const reading: HotWalletReading = {
    address,
    usdt,
    trxSun: account.balanceSun,
    energyLeft: left.energy,
    energyLimit: account.energyLimit,
    left,
    fees,
    readAt: ctx.clock.now(),
  };
  await recordHotWalletReading(ctx, reading);
  return reading;
};

type StatusRow = { low_usdt_since: Date | null; low_trx_since: Date | null };

/**
 * Stores the reading (hot_wallet_status, which `ops summary` shows), sets the gauges, and keeps
 * the low-balance episodes: below HOT_WALLET_MIN_USDT or HOT_WALLET_MIN_TRX for the first time
 * since it was last above → one `hot_wallet_low` alert to the operators' chat (the episode's start
 * is its dedupe key, so two watchers noticing it queue one); back above → the episode ends.
 */
export const recordHotWalletReading = async (ctx: ChainContext, reading: HotWalletReading) => {
  lastReading = reading;
  const labels = [reading.address] as const;
  hotWalletUsdt.labels(...labels).set(Number(reading.usdt));
  hotWalletTrx.labels(...labels).set(Number(reading.trxSun));
  hotWalletEnergy.labels(...labels).set(reading.energyLeft);
  hotWalletBandwidth.labels(...labels).set(bandwidthLeftOf(reading));
  hotWalletReadTime.labels(...labels).set(reading.readAt.getTime() / 1000);
  tronEnergyPrice.set(Number(reading.fees.energySun));
  const figures = {
    usdt: reading.usdt,
    trxSun: reading.trxSun,
    energyAvailable: BigInt(reading.energyLeft),
    energyLimit: BigInt(reading.energyLimit),
    bandwidthAvailable: BigInt(bandwidthLeftOf(reading)),
    energyPriceSun: reading.fees.energySun,
    bandwidthPriceSun: reading.fees.bandwidthSun,
    readAt: reading.readAt,
  };
  const minUsdt = toMicro(ctx.env.HOT_WALLET_MIN_USDT);
  const minTrx = toMicro(ctx.env.HOT_WALLET_MIN_TRX);
  await ctx.prisma.$transaction(async (tx) => {
    await tx.hotWalletStatus.createMany({
      data: [{ address: reading.address, ...figures }],
      skipDuplicates: true,
    });
    // A slower watcher's older reading never overwrites a newer one.
    await tx.hotWalletStatus.updateMany({
      where: { address: reading.address, readAt: { lte: reading.readAt } },
      data: figures,
    });
    const [row] = await tx.$queryRaw<StatusRow[]>`
      SELECT low_usdt_since, low_trx_since FROM hot_wallet_status
      WHERE address = ${reading.address} FOR UPDATE`;
    const episodes = [
      { asset: 'USDT' as const, balance: reading.usdt, minimum: minUsdt, since: row?.low_usdt_since },
      { asset: 'TRX' as const, balance: reading.trxSun, minimum: minTrx, since: row?.low_trx_since },
    ];
    for (const e of episodes) {
      const column = e.asset === 'USDT' ? 'lowUsdtSince' : 'lowTrxSince';
      const low = e.balance < e.minimum;
      if (low && !e.since) {
        await tx.hotWalletStatus.update({
          where: { address: reading.address },
          data: { [column]: reading.readAt },
        });
        await queueOperatorAlert(tx, {
          kind: 'hot_wallet_low',
          data: {
            address: reading.address,
            asset: e.asset,
            balance: e.balance.toString(),
            minimum: e.minimum.toString(),
          },
          dedupeKey: `hot_wallet_low:${reading.address}:${e.asset}:${reading.readAt.getTime()}`,
          at: reading.readAt,
        });
        ctx.log.warn({ address: reading.address, asset: e.asset }, 'hot wallet below its minimum');
      } else if (!low && e.since) {
        await tx.hotWalletStatus.update({ where: { address: reading.address }, data: { [column]: null } });
        ctx.log.info({ address: reading.address, asset: e.asset }, 'hot wallet back above its minimum');
      }
    }
  });
};

/**
 * The watcher's periodic look at the hot wallet: reads it when the last reading (by any watcher)
 * is older than HOT_WALLET_CHECK_MS, else does nothing (one database read). Returns the reading
 * when it made one.
 */
export const checkHotWallet = async (
  ctx: ChainContext,
  node: TronNodeClient,
  address: string,
): Promise<HotWalletReading | undefined> => {
  const row = await ctx.prisma.hotWalletStatus.findUnique({
    where: { address },
    select: { readAt: true },
  });
  const now = ctx.clock.now().getTime();
  if (row && now - row.readAt.getTime() < ctx.env.HOT_WALLET_CHECK_MS) return undefined;
  return readHotWallet(ctx, node, address);
};

/** The reading as /readyz shows it: decimal strings, the time it was read. */
export const hotWalletDetail = (reading: HotWalletReading | undefined) => {
  if (!reading) return { read: false };
  return {
    address: reading.address,
    usdt: fromMicro(reading.usdt),
    // TRX has 6 decimals too: sun are its micro-units.
    trx: fromMicro(reading.trxSun),
    energy: reading.energyLeft,
    energyLimit: reading.energyLimit,
    bandwidth: bandwidthLeftOf(reading),
    energyPriceSun: Number(reading.fees.energySun),
    readAt: reading.readAt.toISOString(),
  };
};
