import { Prisma, type Withdrawal } from '@gridbot/db';
import { withdrawalsProcessed } from '@gridbot/metrics';
import { reviewUndeliveredNotices } from '../review-undelivered-notices';
import { refundWithdrawal, settleWithdrawal } from '../withdrawal-ledger';
import type { HotWallet } from './hot-wallet';
import type { ChainContext } from './scan-deposits';
import type { ChainTip, NodeBlock, SignedTransaction, TronNodeClient } from './tron-node-client';
import { succeeded } from './usdt-transfers';
import { fundWithdrawals, recordWaiting, type SignCandidate, settleWaiting } from './withdrawal-funding';

export type ProcessWithdrawalsOptions = {
  /** Withdrawals handled per step and call (default 50). */
  batch?: number;
  /**
   * Test hook: stop after the signed transactions are stored, before any broadcast (what a
   * watcher killed between signing and broadcasting leaves behind).
   */
  stopAfterSigning?: boolean;
  /** The head and solidified block the pass read (default: read them now). */
  tip?: ChainTip;
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
 * 1. sign: each approved withdrawal without a transaction that the hot wallet can pay now (USDT, and
 *    TRX for the energy the node estimates; else it waits with its reason: withdrawal-funding.ts),
 *    claimed with FOR UPDATE SKIP LOCKED, gets a USDT transfer of amount − network fee with a fee
 *    limit from that estimate, built and signed locally; the signed transaction and its txid are
 *    stored before anything is sent;
 * 2. broadcast: each approved withdrawal with a stored transaction sends exactly those bytes (after
 *    a crash too: never signed again while they can still land); accepted or already known →
 *    `broadcast`;
 * 3. confirm: a broadcast transaction in a solidified block settles the withdrawal (receipt
 *    SUCCESS → `confirmed`, `withdrawal_sent`) or refunds it (failed on chain → `failed`,
 *    `withdrawal_failed`), status and ledger move in one transaction.
 *
 * A transaction the chain never took (refused, or dropped by a fork) is signed anew only once it is
 * provably dead: its expiration is older than the solidified block, and no block holds it.
 *
 * The pass's heights come from the caller (read once per pass); a block's header (its time) is
 * read only when something is to be signed or checked, so with no withdrawal in flight this costs
 * the node nothing (docs/wallet.md#within-trongrids-budget).
 */
export const processWithdrawals = async (
  ctx: ChainContext,
  node: TronNodeClient,
  hot: HotWallet,
  options: ProcessWithdrawalsOptions = {},
): Promise<ProcessWithdrawalsResult> => {
  const batch = options.batch ?? 50;
  const result: ProcessWithdrawalsResult = { signed: 0, broadcast: 0, confirmed: 0, failed: 0, resigned: 0 };
  const blocks = passBlocks(node, options.tip ?? (await node.chainTip()));
  await reviewUndeliveredNotices(ctx);
  result.signed = await signApproved(ctx, node, hot, blocks, batch);
  if (options.stopAfterSigning) return result;
  const sent = await broadcastSigned(ctx, node, blocks, batch);
  result.broadcast = sent.broadcast;
  result.resigned = sent.resigned;
  const followed = await followBroadcast(ctx, node, blocks, { batch, sentNow: sent.ids });
  result.confirmed = followed.confirmed;
  result.failed = followed.failed;
  result.resigned += followed.resigned;
  return result;
};

/** The pass's head and solidified block; a header is read once, when a step needs its time. */
type PassBlocks = { tip: ChainTip; head(): Promise<NodeBlock>; solid(): Promise<NodeBlock> };

const passBlocks = (node: TronNodeClient, tip: ChainTip): PassBlocks => {
  let head: Promise<NodeBlock> | undefined;
  let solid: Promise<NodeBlock> | undefined;
  return {
    tip,
    head: () => {
      head ??= node.blockHeader(tip.head.number);
      return head;
    },
    solid: () => {
      solid ??= node.blockHeader(tip.solid.number);
      return solid;
    },
  };
};

/**
 * An approved withdrawal that may be signed now (docs/wallet.md#release): unsigned, its release
 * time passed, and its owner told (the `withdrawal_requested` notice sent; one an operator approved
 * goes even when the notice could not be delivered). The same condition picks the candidates the
 * hot wallet is checked for and the row that is signed, so a withdrawal still held back is never
 * marked as waiting for the platform's wallet.
 */
const releasable = (ctx: ChainContext) => Prisma.sql`
  w.status = 'approved' AND w.signed_tx IS NULL AND w.release_at <= ${ctx.clock.now()}
  AND EXISTS (SELECT 1 FROM notifications n
               WHERE n.dedupe_key = 'withdrawal_requested:' || w.id
                 AND (n.status = 'sent'
                      OR (w.decided_by <> 'auto' AND n.status IN ('blocked', 'failed', 'expired', 'muted'))))`;

const signApproved = async (
  ctx: ChainContext,
  node: TronNodeClient,
  hot: HotWallet,
  blocks: PassBlocks,
  batch: number,
): Promise<number> => {
  // docs/wallet.md#network-fees: only what the hot wallet can pay now is signed; the rest waits.
  const candidates = await ctx.prisma.$queryRaw<SignCandidate[]>`
    SELECT w.id, w.to_address, w.amount, w.network_fee FROM withdrawals w
    WHERE ${releasable(ctx)} ORDER BY w.id LIMIT ${batch}`;
  if (candidates.length === 0) {
    await settleWaiting(ctx, hot.address);
    return 0;
  }
  const funding = await fundWithdrawals(ctx, node, hot, candidates);
  await recordWaiting(ctx, hot.address, funding.waiting);
  if (funding.admitted.size === 0) {
    await settleWaiting(ctx, hot.address);
    return 0;
  }
  // Read before any row is locked (no network call inside the signing transaction).
  const head = await blocks.head();
  let signed = 0;
  while (signed < batch && funding.admitted.size > 0) {
    const done = await signOne(ctx, node, hot, { head, solid: blocks.tip.solid }, funding.admitted);
    if (!done) break;
    signed += 1;
  }
  await settleWaiting(ctx, hot.address);
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
  blocks: { head: NodeBlock; solid: ChainTip['solid'] },
  feeLimits: Map<number, bigint>,
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
          WHERE ${releasable(ctx)} AND w.id = ANY(${[...feeLimits.keys()]}::int[])
          ORDER BY w.id LIMIT 1 FOR UPDATE OF w SKIP LOCKED`;
        if (!row) return false;
        const feeLimitSun = feeLimits.get(row.id)!;
        feeLimits.delete(row.id);
        // Built and signed locally (no network call while the row is locked).
        const transaction = await node.signUsdtTransfer({
          privateKey: hot.privateKey,
          to: row.to_address,
          units: BigInt(row.amount) - BigInt(row.network_fee),
          ref: blocks.solid,
          head: blocks.head,
          distinctMs: row.id % 1000,
          feeLimitSun,
        });
        await tx.withdrawal.update({
          where: { id: row.id },
          data: {
            signedTx: transaction as unknown as Prisma.InputJsonValue,
            txid: transaction.txID,
            waitingReason: null,
          },
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

/** Expired before the solidified block: no block that could still come may hold it. */
const expiredBeforeSolid = async (w: Withdrawal, blocks: PassBlocks) =>
  signedOf(w).raw_data.expiration < (await blocks.solid()).timestamp;

/** Expired before the solidified block and in no block: it can never land. */
const provablyDead = async (node: TronNodeClient, w: Withdrawal, blocks: PassBlocks) =>
  (await expiredBeforeSolid(w, blocks)) && !(await node.transactionInfo(w.txid!, false));

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

const broadcastSigned = async (
  ctx: ChainContext,
  node: TronNodeClient,
  blocks: PassBlocks,
  batch: number,
) => {
  const rows = await ctx.prisma.withdrawal.findMany({
    where: { status: 'approved', txid: { not: null } },
    orderBy: { id: 'asc' },
    take: batch,
  });
  let broadcast = 0;
  let resigned = 0;
  const ids = new Set<number>();
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
      ids.add(w.id);
      withdrawalsProcessed.labels('sent').inc();
      continue;
    }
    ctx.log.warn(
      { withdrawalId: w.id, txid: w.txid, code: outcome.code, message: outcome.message },
      'withdrawal broadcast refused',
    );
    if (await provablyDead(node, w, blocks)) resigned += await releaseForResigning(ctx, w);
  }
  return { broadcast, resigned, ids };
};

/**
 * Follows each broadcast withdrawal: one look at the head while its block is not solidified yet,
 * the solidified view once it is (only that view settles it). The ones this pass just sent wait
 * for the next pass: no block can hold them yet.
 */
const followBroadcast = async (
  ctx: ChainContext,
  node: TronNodeClient,
  blocks: PassBlocks,
  { batch, sentNow }: { batch: number; sentNow: ReadonlySet<number> },
) => {
  const rows = await ctx.prisma.withdrawal.findMany({
    where: { status: 'broadcast', id: { notIn: [...sentNow] } },
    orderBy: { id: 'asc' },
    take: batch,
  });
  const counts = { confirmed: 0, failed: 0, resigned: 0 };
  for (const w of rows) {
    const seen = await node.transactionInfo(w.txid!, false);
    if (seen?.blockNumber !== undefined && seen.blockNumber > blocks.tip.solid.number) continue;
    const info = seen ? await node.transactionInfo(w.txid!, true) : undefined;
    if (info) {
      const ok = succeeded(info);
      const reason = ok ? null : `failed on chain: ${info.receipt?.result ?? info.result ?? 'FAILED'}`;
      if (await finish(ctx, w, ok, reason)) {
        counts[ok ? 'confirmed' : 'failed'] += 1;
        withdrawalsProcessed.labels(ok ? 'confirmed' : 'failed').inc();
      }
      continue;
    }
    // In a block the solidified view does not show yet: the next pass looks again.
    if (seen) continue;
    if (await expiredBeforeSolid(w, blocks)) {
      counts.resigned += await releaseForResigning(ctx, w);
      continue;
    }
    // In no block and not expired. If the node no longer knows it (a restarted node lost its pool,
    // a fork took its block), the same bytes go out again; the node answers DUP when it has them.
    await node.broadcast(signedOf(w));
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
