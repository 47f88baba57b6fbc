import type { WithdrawalWaitingReason } from '@gridbot/db';
import { withdrawalsWaiting } from '@gridbot/metrics';
import { queueOperatorAlert } from '../../operators/queue-operator-alert';
import type { HotWallet } from './hot-wallet';
import { type HotWalletReading, readHotWallet } from './hot-wallet-status';
import {
  energyWithMargin,
  feeLimitOf,
  feeLimitSettingsOf,
  transferCost,
  USDT_TRANSFER_BYTES,
} from './network-fees';
import type { ChainContext } from './scan-deposits';
import type { SignedTransaction, TronNodeClient } from './tron-node-client';

/** An approved withdrawal not signed yet. */
export type SignCandidate = { id: number; to_address: string; amount: bigint; network_fee: bigint };

export type WithdrawalFunding = {
  /** Withdrawals the hot wallet can pay now, with each one's fee limit (sun). */
  admitted: Map<number, bigint>;
  waiting: Array<{ id: number; reason: WithdrawalWaitingReason; receives: bigint }>;
};

type InFlight = {
  txid: string | null;
  status: string;
  amount: bigint;
  networkFee: bigint;
  signedTx: unknown;
};

/**
 * Which of these withdrawals the hot wallet can pay now (docs/wallet.md#network-fees). It reads
 * the wallet fresh (USDT, TRX, energy, bandwidth, the energy price), sets aside what the
 * withdrawals already signed but not yet in a block will take (their USDT and, at most, their fee
 * limits), then takes the candidates in order: each needs its USDT, and TRX for its transfer's
 * energy beyond the staked energy left (the node's estimate for that recipient + the margin) and
 * for its bandwidth. One it cannot pay waits with the reason — nothing is signed, so nothing is
 * broadcast to fail and burn TRX — and a later, smaller one may still go.
 */
export const fundWithdrawals = async (
  ctx: ChainContext,
  node: TronNodeClient,
  hot: HotWallet,
  candidates: SignCandidate[],
): Promise<WithdrawalFunding> => {
  const reading = await readHotWallet(ctx, node, hot.address);
  const inFlight = await ctx.prisma.withdrawal.findMany({
    where: { OR: [{ status: 'approved', txid: { not: null } }, { status: 'broadcast' }] },
    select: { txid: true, status: true, amount: true, networkFee: true, signedTx: true },
  });
  const estimates = new Map<number, Awaited<ReturnType<TronNodeClient['estimateUsdtTransfer']>>>();
  const first = await allocate(ctx, node, hot, reading, candidates, inFlight, estimates);
  const broadcast = inFlight.filter((w) => w.status === 'broadcast');
  if (first.waiting.length === 0 || broadcast.length === 0) return first;
  // Short while some sent ones are set aside: those already in a block took their share of the
  // balance the node reports, so they are counted once only.
  const packed = new Set<string>();
  for (const w of broadcast) if (await node.transactionInfo(w.txid!, false)) packed.add(w.txid!);
  if (packed.size === 0) return first;
  const pending = inFlight.filter((w) => !(w.status === 'broadcast' && packed.has(w.txid!)));
  return allocate(ctx, node, hot, reading, candidates, pending, estimates);
};

const allocate = async (
  ctx: ChainContext,
  node: TronNodeClient,
  hot: HotWallet,
  reading: HotWalletReading,
  candidates: SignCandidate[],
  inFlight: InFlight[],
  estimates: Map<number, Awaited<ReturnType<TronNodeClient['estimateUsdtTransfer']>>>,
): Promise<WithdrawalFunding> => {
  const settings = feeLimitSettingsOf(ctx.env);
  let usdtLeft = reading.usdt;
  let trxLeft = reading.trxSun;
  for (const w of inFlight) {
    usdtLeft -= w.amount - w.networkFee;
    trxLeft -= BigInt(
      ((w.signedTx as SignedTransaction | null)?.raw_data.fee_limit as number | undefined) ?? 0,
    );
  }
  let resources = reading.left;
  const funding: WithdrawalFunding = { admitted: new Map(), waiting: [] };
  for (const c of candidates) {
    const receives = BigInt(c.amount) - BigInt(c.network_fee);
    const wait = (reason: WithdrawalWaitingReason) => funding.waiting.push({ id: c.id, reason, receives });
    if (usdtLeft < receives) {
      wait('hot_wallet_usdt');
      continue;
    }
    let estimate = estimates.get(c.id);
    if (!estimate) {
      estimate = await node.estimateUsdtTransfer({ from: hot.address, to: c.to_address, units: receives });
      estimates.set(c.id, estimate);
    }
    if (!estimate.ok) {
      // The node says the transfer would revert: the wallet cannot pay it (whatever we counted).
      ctx.log.warn(
        { withdrawalId: c.id, reason: estimate.reason },
        'withdrawal transfer cannot be estimated',
      );
      wait('hot_wallet_usdt');
      continue;
    }
    const limit = feeLimitOf(estimate.energy, reading.fees, settings);
    if (limit.aboveMax) {
      wait('fee_above_max');
      continue;
    }
    const energy = Number(energyWithMargin(estimate.energy, settings.marginPct));
    const cost = transferCost(resources, { energy, bytes: USDT_TRANSFER_BYTES }, reading.fees);
    if (trxLeft < cost.burnSun) {
      wait('hot_wallet_trx');
      continue;
    }
    funding.admitted.set(c.id, limit.feeLimitSun);
    usdtLeft -= receives;
    trxLeft -= cost.burnSun;
    resources = cost.left;
  }
  return funding;
};

/**
 * Writes why withdrawals wait (the user reads it in the wallet) and, when this is the first to
 * wait since none did, starts the episode: one `withdrawals_waiting` alert to the operators'
 * chat, keyed by the episode's start so two watchers queue one.
 */
export const recordWaiting = async (
  ctx: ChainContext,
  address: string,
  waiting: WithdrawalFunding['waiting'],
): Promise<void> => {
  if (waiting.length === 0) return;
  const now = ctx.clock.now();
  await ctx.prisma.$transaction(async (tx) => {
    for (const reason of new Set(waiting.map((w) => w.reason))) {
      await tx.withdrawal.updateMany({
        where: {
          id: { in: waiting.filter((w) => w.reason === reason).map((w) => w.id) },
          status: 'approved',
          txid: null,
        },
        data: { waitingReason: reason },
      });
    }
    const started = await tx.hotWalletStatus.updateMany({
      where: { address, waitingSince: null },
      data: { waitingSince: now },
    });
    if (started.count === 0) return;
    await queueOperatorAlert(tx, {
      kind: 'withdrawals_waiting',
      data: {
        address,
        reason: waiting[0]!.reason,
        count: waiting.length,
        amount: waiting.reduce((sum, w) => sum + w.receives, 0n).toString(),
      },
      dedupeKey: `withdrawals_waiting:${address}:${now.getTime()}`,
      at: now,
    });
    ctx.log.warn({ address, waiting: waiting.length }, "withdrawals wait for the platform's wallet");
  });
};

/**
 * Ends the waiting episode once no approved withdrawal waits any more (they were signed), and
 * sets the gauge of those still waiting, by reason.
 */
export const settleWaiting = async (ctx: ChainContext, address: string): Promise<void> => {
  const counts = await ctx.prisma.withdrawal.groupBy({
    by: ['waitingReason'],
    where: { status: 'approved', waitingReason: { not: null } },
    _count: true,
  });
  withdrawalsWaiting.reset();
  for (const c of counts) withdrawalsWaiting.labels(c.waitingReason!).set(c._count);
  if (counts.length > 0) return;
  const ended = await ctx.prisma.hotWalletStatus.updateMany({
    where: { address, waitingSince: { not: null } },
    data: { waitingSince: null },
  });
  if (ended.count > 0) ctx.log.info({ address }, "no withdrawal waits for the platform's wallet any more");
};
