import { Prisma, type Sweep, type SweepStatus } from '@gridbot/db';
import { sweepsProcessed, sweepsTrxBurned } from '@gridbot/metrics';
import type { HotWallet } from '../chain/hot-wallet';
import { feeLimitOf, feeLimitSettingsOf } from '../chain/network-fees';
import type { ChainContext } from '../chain/scan-deposits';
import type {
  NodeBlock,
  NodeTransactionInfo,
  SignedTransaction,
  TronNodeClient,
} from '../chain/tron-node-client';
import { succeeded } from '../chain/usdt-transfers';
import { planSweep, withTopupCost } from './plan-sweep';
import type { DepositKeys } from './sweep-keys';

export type SweeperKeys = { hot: HotWallet; deposits: DepositKeys };

export type ProcessSweepsOptions = {
  /** Open sweeps handled per call (default 20). */
  batch?: number;
  /** Test hook: stop after a transaction is stored, before it is broadcast (a sweeper killed there). */
  stopAfterSigning?: boolean;
};

export type ProcessSweepsResult = {
  signed: number;
  broadcast: number;
  confirmed: number;
  failed: number;
  cancelled: number;
};

type Blocks = { head: NodeBlock; solid: NodeBlock };
type Step = (s: Sweep) => Promise<Sweep | undefined>;

/**
 * Carries every open sweep as far as it can go now (docs/wallet.md#sweeps), each step a
 * conditional update of its row, so two sweepers never both take one step:
 *
 * queued → plan it (amount, destination, energy); if the address lacks the TRX, sign the hot
 * wallet's top-up and store it (`topup_signed`) → broadcast those bytes (`topup_sent`) → once the
 * top-up is in a solidified block (`funded`) → derive the deposit key, check it gives the address,
 * sign the USDT transfer with its fee limit and store it (`transfer_signed`) → broadcast those bytes
 * (`transfer_sent`) → solidified: `confirmed` with the energy used and the TRX burnt, or `failed`.
 *
 * Like withdrawals, a stored transaction is only ever sent as stored, and signed anew only when
 * provably dead (expired before the solidified block, in no block). Ledger-neutral: the USDT stays
 * the platform's on chain, so no transfer is booked; the TRX it cost is recorded on the row.
 */
export const processSweeps = async (
  ctx: ChainContext,
  node: TronNodeClient,
  keys: SweeperKeys,
  options: ProcessSweepsOptions = {},
): Promise<ProcessSweepsResult> => {
  const result: ProcessSweepsResult = { signed: 0, broadcast: 0, confirmed: 0, failed: 0, cancelled: 0 };
  const open = await ctx.prisma.sweep.findMany({
    where: { openFor: { not: null } },
    orderBy: { id: 'asc' },
    take: options.batch ?? 20,
  });
  if (open.length === 0) return result;
  const [head, solid] = await Promise.all([node.headBlock(), node.solidBlock()]);
  const steps = stepsOf(ctx, node, keys, { head, solid }, result);
  for (const first of open) {
    let s: Sweep | undefined = first;
    while (s) {
      const step: Step | undefined = steps[s.status];
      const next: Sweep | undefined = step ? await step(s) : undefined;
      if (!next || next.status === s.status) break;
      if (options.stopAfterSigning && (next.status === 'topup_signed' || next.status === 'transfer_signed'))
        break;
      // Just sent: it cannot be in a block yet; the next pass follows it.
      if (next.status === 'topup_sent' || next.status === 'transfer_sent') break;
      s = next;
    }
  }
  return result;
};

const stepsOf = (
  ctx: ChainContext,
  node: TronNodeClient,
  keys: SweeperKeys,
  blocks: Blocks,
  result: ProcessSweepsResult,
): Partial<Record<SweepStatus, Step>> => {
  /** Moves the sweep from its status to the next one; undefined when another sweeper did first. */
  const advance = async (s: Sweep, status: SweepStatus, data: Prisma.SweepUpdateManyMutationInput) => {
    const moved = await ctx.prisma.sweep.updateMany({
      where: { id: s.id, status: s.status },
      data: { ...data, status },
    });
    return moved.count === 1
      ? ctx.prisma.sweep.findUnique({ where: { id: s.id } }).then((r) => r ?? undefined)
      : undefined;
  };
  const note = async (s: Sweep, reason: string) => {
    if (s.reason !== reason)
      await ctx.prisma.sweep.updateMany({ where: { id: s.id, status: s.status }, data: { reason } });
    ctx.log.warn({ sweepId: s.id, address: s.address, reason }, 'sweep waits');
    return undefined;
  };
  const dead = async (tx: SignedTransaction, txid: string) =>
    tx.raw_data.expiration < blocks.solid.timestamp && !(await node.transactionInfo(txid, false));
  const distinctMs = (s: Sweep) => s.id % 1000;

  return {
    queued: async (s) => {
      const outcome = await planSweep(ctx, node, keys.hot, { address: s.address, excludeSweep: s.id });
      if (!outcome.ok) {
        if (!outcome.cancel) return note(s, outcome.reason);
        const cancelled = await advance(s, 'cancelled', {
          reason: outcome.reason,
          openFor: null,
          finishedAt: ctx.clock.now(),
        });
        if (cancelled) {
          result.cancelled += 1;
          sweepsProcessed.labels('cancelled').inc();
        }
        return cancelled;
      }
      const planned = {
        amount: outcome.plan.amount,
        destination: outcome.plan.destination,
        destinationKind: outcome.plan.destinationKind,
        reason: null,
      };
      if (outcome.plan.topupSun === 0n)
        return advance(s, 'funded', { ...planned, topupSun: 0n, topupFeeSun: 0n });
      const { plan, hotCanPay } = await withTopupCost(node, keys.hot, outcome.plan);
      if (!hotCanPay) return note(s, 'the hot wallet holds too little TRX for the top-up');
      const signed = await node.signTrxTransfer({
        privateKey: keys.hot.privateKey,
        to: s.address,
        sun: plan.topupSun,
        ref: blocks.solid,
        head: blocks.head,
        distinctMs: distinctMs(s),
      });
      const stored = await advance(s, 'topup_signed', {
        ...planned,
        topupSun: plan.topupSun,
        topupTx: signed as unknown as Prisma.InputJsonValue,
        topupTxid: signed.txID,
      });
      if (stored) {
        result.signed += 1;
        ctx.log.info(
          { sweepId: s.id, txid: signed.txID, sun: plan.topupSun.toString() },
          'sweep top-up signed and stored',
        );
      }
      return stored;
    },
    topup_signed: async (s) => {
      const tx = s.topupTx as unknown as SignedTransaction;
      const outcome = await node.broadcast(tx);
      if (outcome.accepted || outcome.code === 'DUP_TRANSACTION_ERROR') {
        result.broadcast += 1;
        return advance(s, 'topup_sent', { topupSentAt: ctx.clock.now() });
      }
      ctx.log.warn({ sweepId: s.id, code: outcome.code, message: outcome.message }, 'sweep top-up refused');
      return (await dead(tx, s.topupTxid!)) ? advance(s, 'queued', clearedTopup) : undefined;
    },
    topup_sent: async (s) => {
      const tx = s.topupTx as unknown as SignedTransaction;
      const info = await node.transactionInfo(s.topupTxid!, true);
      if (info && info.result !== 'FAILED')
        return advance(s, 'funded', { topupFeeSun: BigInt(info.fee ?? 0) });
      if (info) return advance(s, 'queued', { ...clearedTopup, reason: 'the top-up failed on chain' });
      if (await dead(tx, s.topupTxid!)) return advance(s, 'queued', clearedTopup);
      if (!(await node.transactionInfo(s.topupTxid!, false))) await node.broadcast(tx);
      return undefined;
    },
    funded: async (s) => {
      const wallet = await ctx.prisma.wallet.findUniqueOrThrow({ where: { depositAddress: s.address } });
      let privateKey: string;
      try {
        privateKey = keys.deposits.keyFor(wallet.derivationIndex, s.address);
      } catch (error) {
        ctx.log.error({ err: error, sweepId: s.id }, 'sweep: the deposit key does not match its address');
        return note(s, (error as Error).message);
      }
      const estimate = await node.estimateUsdtTransfer({
        from: s.address,
        to: s.destination!,
        units: s.amount,
      });
      if (!estimate.ok) return note(s, `the node cannot estimate the transfer: ${estimate.reason}`);
      const limit = feeLimitOf(estimate.energy, await node.chainFees(), feeLimitSettingsOf(ctx.env));
      if (limit.aboveMax) return note(s, 'the network fee is above TRON_FEE_LIMIT_MAX_TRX');
      const signed = await node.signUsdtTransfer({
        privateKey,
        to: s.destination!,
        units: s.amount,
        ref: blocks.solid,
        head: blocks.head,
        distinctMs: distinctMs(s),
        feeLimitSun: limit.feeLimitSun,
      });
      const stored = await advance(s, 'transfer_signed', {
        transferTx: signed as unknown as Prisma.InputJsonValue,
        transferTxid: signed.txID,
        feeLimitSun: limit.feeLimitSun,
        reason: null,
      });
      if (stored) {
        result.signed += 1;
        ctx.log.info({ sweepId: s.id, txid: signed.txID }, 'sweep transfer signed and stored');
      }
      return stored;
    },
    transfer_signed: async (s) => {
      const tx = s.transferTx as unknown as SignedTransaction;
      const outcome = await node.broadcast(tx);
      if (outcome.accepted || outcome.code === 'DUP_TRANSACTION_ERROR') {
        result.broadcast += 1;
        return advance(s, 'transfer_sent', { transferSentAt: ctx.clock.now() });
      }
      ctx.log.warn({ sweepId: s.id, code: outcome.code, message: outcome.message }, 'sweep transfer refused');
      return (await dead(tx, s.transferTxid!)) ? advance(s, 'funded', clearedTransfer) : undefined;
    },
    transfer_sent: async (s) => {
      const tx = s.transferTx as unknown as SignedTransaction;
      const info = await node.transactionInfo(s.transferTxid!, true);
      if (info) return finish(s, info);
      if (await dead(tx, s.transferTxid!)) return advance(s, 'funded', clearedTransfer);
      if (!(await node.transactionInfo(s.transferTxid!, false))) await node.broadcast(tx);
      return undefined;
    },
  };

  async function finish(s: Sweep, info: NodeTransactionInfo) {
    const ok = succeeded(info);
    const cost = {
      energyUsed: BigInt(info.receipt?.energy_usage_total ?? 0),
      trxBurnedSun: BigInt(info.fee ?? 0),
      openFor: null,
      finishedAt: ctx.clock.now(),
    };
    const done = ok
      ? await advance(s, 'confirmed', { ...cost, reason: null })
      : await advance(s, 'failed', {
          ...cost,
          reason: `failed on chain: ${info.receipt?.result ?? 'FAILED'}`,
        });
    if (!done) return undefined;
    result[ok ? 'confirmed' : 'failed'] += 1;
    sweepsProcessed.labels(ok ? 'confirmed' : 'failed').inc();
    sweepsTrxBurned.inc(Number(cost.trxBurnedSun + (s.topupFeeSun ?? 0n)));
    ctx.log.info(
      { sweepId: s.id, address: s.address, to: s.destination, ok, energy: cost.energyUsed.toString() },
      ok ? 'sweep confirmed' : 'sweep failed on chain',
    );
    return done;
  }
};

const clearedTopup = {
  topupTx: Prisma.DbNull,
  topupTxid: null,
  topupSun: null,
  topupSentAt: null,
} satisfies Prisma.SweepUpdateManyMutationInput;

const clearedTransfer = {
  transferTx: Prisma.DbNull,
  transferTxid: null,
  feeLimitSun: null,
  transferSentAt: null,
} satisfies Prisma.SweepUpdateManyMutationInput;
