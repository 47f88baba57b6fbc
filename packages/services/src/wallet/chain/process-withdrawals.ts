import { Prisma, type Withdrawal } from '@gridbot/db';
import { withdrawalsProcessed } from '@gridbot/metrics';
import { reviewUndeliveredNotices } from '../review-undelivered-notices';
import { refundWithdrawal, settleWithdrawal } from '../withdrawal-ledger';
import type { HotWallet } from './hot-wallet';
import type { ChainContext } from './scan-deposits';
import type { NodeBlock, SignedTransaction, TronNodeClient } from './tron-node-client';
import { succeeded } from './usdt-transfers';

export type ProcessWithdrawalsOptions = {
  /** Withdrawals handled per step and call (default 50). */
  batch?: number;
  /**
   * Test hook: stop after the signed transactions are stored, before any broadcast (what a
   * watcher killed between signing and broadcasting leaves behind).
   */
  stopAfterSigning?: boolean;
};

export type ProcessWithdrawalsResult = {
  signed: number;
  broadcast: number;
  confirmed: number;
  failed: number;
  resigned: number;
};

/**
 * Sends approved withdrawals from the hot wallet and follows them to the end
 * (docs/wallet.md#withdrawals):
 *
 * 1. sign: each approved withdrawal without a transaction, claimed with FOR UPDATE SKIP LOCKED, gets
 *    a USDT transfer of amount − network fee built and signed locally; the signed transaction and
 *    its txid are stored before anything is sent;
 * 2. broadcast: each approved withdrawal with a stored transaction sends exactly those bytes (after
 *    a crash too: never signed again while they can still land); accepted or already known →
 *    `broadcast`;
 * 3. confirm: a broadcast transaction in a solidified block settles the withdrawal (receipt
 *    SUCCESS → `confirmed`, `withdrawal_sent`) or refunds it (failed on chain → `failed`,
 *    `withdrawal_failed`), status and ledger move in one transaction.
 *
 * A transaction the chain never took (refused, or dropped by a fork) is signed anew only once it is
 * provably dead: its expiration is older than the solidified block, and no block holds it.
 */
export const processWithdrawals = async (
  ctx: ChainContext,
  node: TronNodeClient,
  hot: HotWallet,
  options: ProcessWithdrawalsOptions = {},
): Promise<ProcessWithdrawalsResult> => {
  const batch = options.batch ?? 50;
  const result: ProcessWithdrawalsResult = { signed: 0, broadcast: 0, confirmed: 0, failed: 0, resigned: 0 };
  const [head, solid] = await Promise.all([node.headBlock(), node.solidBlock()]);
  await reviewUndeliveredNotices(ctx);
  result.signed = await signApproved(ctx, node, hot, { head, solid }, batch);
  if (options.stopAfterSigning) return result;
  const sent = await broadcastSigned(ctx, node, solid, batch);
  result.broadcast = sent.broadcast;
  result.resigned = sent.resigned;
  const followed = await followBroadcast(ctx, node, solid, batch);
  result.confirmed = followed.confirmed;
  result.failed = followed.failed;
  result.resigned += followed.resigned;
  return result;
};

const signApproved = async (
  ctx: ChainContext,
  node: TronNodeClient,
  hot: HotWallet,
  blocks: { head: NodeBlock; solid: NodeBlock },
  batch: number,
): Promise<number> => {
  let signed = 0;
  while (signed < batch) {
    const done = await signOne(ctx, node, hot, blocks);
    if (!done) break;
    signed += 1;
  }
  return signed;
};

/**
 * Signs the first unsigned approved withdrawal nobody else holds; false when there is none. A
 * transaction equal to one already stored (txid unique) is not kept: the next pass signs it at
 * another block.
 */
const signOne = async (
  ctx: ChainContext,
  node: TronNodeClient,
  hot: HotWallet,
  blocks: { head: NodeBlock; solid: NodeBlock },
): Promise<boolean> => {
  try {
    return await ctx.prisma.$transaction(
      async (tx) => {
        // Released only (docs/wallet.md#release): its delay has passed, so a freeze had its
        // chance, and its owner's `withdrawal_requested` notice has left — or, for one an operator
        // approved, can never leave.
        const [row] = await tx.$queryRaw<
          Array<{ id: number; to_address: string; amount: bigint; network_fee: bigint }>
        >`
          SELECT w.id, w.to_address, w.amount, w.network_fee FROM withdrawals w
          WHERE w.status = 'approved' AND w.signed_tx IS NULL AND w.release_at <= ${ctx.clock.now()}
            AND EXISTS (SELECT 1 FROM notifications n
                         WHERE n.dedupe_key = 'withdrawal_requested:' || w.id
                           AND (n.status = 'sent'
                                OR (w.decided_by <> 'auto' AND n.status IN ('blocked', 'failed', 'expired', 'muted'))))
          ORDER BY w.id LIMIT 1 FOR UPDATE OF w SKIP LOCKED`;
        if (!row) return false;
        // Built and signed locally (no network call while the row is locked).
        const transaction = await node.signUsdtTransfer({
          privateKey: hot.privateKey,
          to: row.to_address,
          units: BigInt(row.amount) - BigInt(row.network_fee),
          ref: blocks.solid,
          head: blocks.head,
          distinctMs: row.id % 1000,
        });
        await tx.withdrawal.update({
          where: { id: row.id },
          data: { signedTx: transaction as unknown as Prisma.InputJsonValue, txid: transaction.txID },
        });
        ctx.log.info({ withdrawalId: row.id, txid: transaction.txID }, 'withdrawal signed and stored');
        return true;
      },
      { timeout: 30_000 },
    );
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    ctx.log.warn({ err: error }, 'withdrawal transaction equal to a stored one: signing it next pass');
    return false;
  }
};

const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

const signedOf = (w: Withdrawal): SignedTransaction => w.signedTx as unknown as SignedTransaction;

/** Expired before the solidified block and in no block: it can never land. */
const provablyDead = async (node: TronNodeClient, w: Withdrawal, solid: NodeBlock) =>
  signedOf(w).raw_data.expiration < solid.timestamp && !(await node.transactionInfo(w.txid!, false));

/** Clears a dead transaction so the next pass signs a new one (the old txid can never land). */
const releaseForResigning = async (ctx: ChainContext, w: Withdrawal): Promise<number> => {
  const released = await ctx.prisma.withdrawal.updateMany({
    where: { id: w.id, txid: w.txid, status: { in: ['approved', 'broadcast'] } },
    data: { status: 'approved', signedTx: Prisma.DbNull, txid: null, broadcastAt: null },
  });
  if (released.count > 0) {
    ctx.log.warn(
      { withdrawalId: w.id, txid: w.txid },
      'withdrawal transaction expired off chain: signing anew',
    );
  }
  return released.count;
};

const broadcastSigned = async (ctx: ChainContext, node: TronNodeClient, solid: NodeBlock, batch: number) => {
  const rows = await ctx.prisma.withdrawal.findMany({
    where: { status: 'approved', txid: { not: null } },
    orderBy: { id: 'asc' },
    take: batch,
  });
  let broadcast = 0;
  let resigned = 0;
  for (const w of rows) {
    // The row stays locked while its bytes go out: a freeze (docs/wallet.md#freeze) either stopped
    // it before (then it is no longer approved and nothing is sent) or waits until it is broadcast.
    const outcome = await ctx.prisma.$transaction(
      async (tx) => {
        const [still] = await tx.$queryRaw<Array<{ id: number }>>`
          SELECT id FROM withdrawals WHERE id = ${w.id} AND status = 'approved' AND txid = ${w.txid} FOR UPDATE`;
        if (!still) return undefined;
        const sent = await node.broadcast(signedOf(w));
        if (sent.accepted || sent.code === 'DUP_TRANSACTION_ERROR') {
          await tx.withdrawal.update({
            where: { id: w.id },
            data: { status: 'broadcast', broadcastAt: ctx.clock.now() },
          });
        }
        return sent;
      },
      { timeout: 30_000 },
    );
    if (!outcome) continue;
    if (outcome.accepted || outcome.code === 'DUP_TRANSACTION_ERROR') {
      broadcast += 1;
      withdrawalsProcessed.labels('sent').inc();
      continue;
    }
    ctx.log.warn(
      { withdrawalId: w.id, txid: w.txid, code: outcome.code, message: outcome.message },
      'withdrawal broadcast refused',
    );
    if (await provablyDead(node, w, solid)) resigned += await releaseForResigning(ctx, w);
  }
  return { broadcast, resigned };
};

const followBroadcast = async (ctx: ChainContext, node: TronNodeClient, solid: NodeBlock, batch: number) => {
  const rows = await ctx.prisma.withdrawal.findMany({
    where: { status: 'broadcast' },
    orderBy: { id: 'asc' },
    take: batch,
  });
  const counts = { confirmed: 0, failed: 0, resigned: 0 };
  for (const w of rows) {
    const info = await node.transactionInfo(w.txid!, true);
    if (info) {
      const ok = succeeded(info);
      const reason = ok ? null : `failed on chain: ${info.receipt?.result ?? info.result ?? 'FAILED'}`;
      if (await finish(ctx, w, ok, reason)) {
        counts[ok ? 'confirmed' : 'failed'] += 1;
        withdrawalsProcessed.labels(ok ? 'confirmed' : 'failed').inc();
      }
      continue;
    }
    if (await provablyDead(node, w, solid)) {
      counts.resigned += await releaseForResigning(ctx, w);
      continue;
    }
    // Not solidified yet. If the node no longer knows it (a restarted node lost its pool, a fork
    // took its block), the same bytes go out again; the node answers DUP when it has them.
    if (!(await node.transactionInfo(w.txid!, false))) await node.broadcast(signedOf(w));
  }
  return counts;
};

/** Confirms (settle) or fails (refund) a broadcast withdrawal: status and ledger in one transaction. */
const finish = async (ctx: ChainContext, w: Withdrawal, ok: boolean, reason: string | null) =>
  ctx.prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM withdrawals WHERE id = ${w.id} FOR UPDATE`;
    const row = await tx.withdrawal.findUniqueOrThrow({ where: { id: w.id } });
    if (row.status !== 'broadcast' || row.txid !== w.txid) return false;
    const now = ctx.clock.now();
    const receives = (row.amount - row.networkFee).toString();
    if (ok) {
      const settled = await settleWithdrawal(tx, row);
      await tx.withdrawal.update({
        where: { id: row.id },
        data: { status: 'confirmed', settleTransferId: settled.id, finishedAt: now },
      });
    } else {
      const refunded = await refundWithdrawal(tx, row);
      await tx.withdrawal.update({
        where: { id: row.id },
        data: { status: 'failed', refundTransferId: refunded.id, reason, finishedAt: now },
      });
    }
    const kind = ok ? 'withdrawal_sent' : 'withdrawal_failed';
    await tx.notification.createMany({
      data: [
        {
          userId: row.userId,
          kind,
          data: { withdrawalId: row.id, txid: row.txid, amount: row.amount.toString(), receives },
          dedupeKey: `${kind}:${row.id}`,
        },
      ],
      skipDuplicates: true,
    });
    ctx.log.info(
      { withdrawalId: row.id, txid: row.txid, ok },
      ok ? 'withdrawal confirmed' : 'withdrawal failed',
    );
    return true;
  });
