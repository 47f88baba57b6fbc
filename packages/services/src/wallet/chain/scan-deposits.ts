import type { Prisma } from '@gridbot/db';
import { ensureAccount, SYSTEM_ACCOUNTS } from '@gridbot/ledger';
import { depositsCredited } from '@gridbot/metrics';
import type { ServiceContext } from '../../context/service-context';
import { decideDeposits, depositRowOf, ensureMainAccounts, type WalletTransfer } from './decide-deposits';
import type { BlockRef, ChainTip, NodeTransactionInfo, TronNodeClient } from './tron-node-client';
import { succeeded, usdtTransfersOf } from './usdt-transfers';

/** What the chain services need of the service context (the watcher builds no more). */
export type ChainContext = Pick<ServiceContext, 'prisma' | 'env' | 'log' | 'clock'>;

/** Last solidified block whose deposits are decided (credited, not credited, dropped). */
export const DEPOSIT_CURSOR = 'trc20_deposits';
/** Last head block scanned for deposits to show as pending. */
export const DEPOSIT_SEEN_CURSOR = 'trc20_deposits_seen';

export type ScanDepositsOptions = {
  /**
   * Blocks read per phase and call (default 100, WATCHER_BATCH_BLOCKS): a watcher a long way
   * behind catches up in batches over several calls, its cursors moving with each.
   */
  maxBlocks?: number;
  /** The head and solidified block the pass read (default: read them now). */
  tip?: ChainTip;
};

export type ScanDepositsResult = {
  head: number;
  solid: number;
  /** Cursor positions after the call. */
  seenUpTo: number;
  decidedUpTo: number;
  credited: number;
};

type Tx = Prisma.TransactionClient;

/**
 * Follows USDT transfers to users' deposit addresses (docs/wallet.md#deposits), in two phases:
 *
 * 1. decide, block by block up to the solidified height (solidified blocks never change): each
 *    transfer to a wallet is recorded once per (txid, log index) and credited to main once
 *    (`deposit`, key `deposit:<txid>:<log index>`), or `not_credited` under the minimum; a pending
 *    row that this block should have held and the chain no longer has is `dropped`;
 * 2. see, up to the head: transfers in blocks not solidified yet are recorded `pending`.
 *
 * Each block's transaction infos are read once per phase: the decided phase reads solidified
 * blocks, the seen phase only blocks above the solidified one (docs/wallet.md#within-trongrids-budget).
 *
 * Each block with something to decide is decided in one database transaction with the cursor row
 * locked (a run of blocks without is one conditional cursor write), so a second watcher waits,
 * then finds the block done and stops; the row status changes under a row lock
 * and the ledger key is unique, so nothing is credited twice. The first call on a fresh database
 * starts at the current solidified block.
 */
export const scanDeposits = async (
  ctx: ChainContext,
  node: TronNodeClient,
  options: ScanDepositsOptions = {},
): Promise<ScanDepositsResult> => {
  const maxBlocks = options.maxBlocks ?? 100;
  const { head, solid } = options.tip ?? (await node.chainTip());
  const decided = await decideUpTo(ctx, node, solid, maxBlocks);
  const seenUpTo = await seeUpTo(ctx, node, { head, solid, decidedUpTo: decided.decidedUpTo, maxBlocks });
  return { head: head.number, solid: solid.number, seenUpTo, ...decided };
};

/**
 * Phase 1: decides the solidified blocks after the cursor, at most `maxBlocks`. What was read
 * stays read: a pass the node cuts short (its request budget, an outage) keeps its progress.
 */
const decideUpTo = async (ctx: ChainContext, node: TronNodeClient, solid: BlockRef, maxBlocks: number) => {
  let cursor = await openCursors(ctx, solid.number);
  let decidedUpTo = cursor;
  let credited = 0;
  let pending = await pendingUpTo(ctx, solid.number);
  const last = Math.min(solid.number, cursor + maxBlocks);
  try {
    for (let n = cursor + 1; n <= last; n += 1) {
      const transfers = await walletTransfers(ctx, await node.blockTransactionInfos(n, true));
      const due = pending.filter((row) => row.blockNumber <= BigInt(n));
      // A block with nothing to decide only moves the cursor (in one write for a run of them).
      if (transfers.length === 0 && due.length === 0) {
        decidedUpTo = n;
        continue;
      }
      if (decidedUpTo > cursor && !(await advanceCursor(ctx, cursor, decidedUpTo))) break;
      cursor = decidedUpTo;
      const outcome = await decideBlock(ctx, node, { n, solid, transfers, due });
      if (outcome === 'taken') break;
      credited += outcome;
      depositsCredited.inc(outcome);
      cursor = decidedUpTo = n;
      pending = await pendingUpTo(ctx, solid.number);
    }
  } finally {
    if (decidedUpTo > cursor && (await advanceCursor(ctx, cursor, decidedUpTo))) cursor = decidedUpTo;
  }
  return { decidedUpTo: cursor, credited };
};

/**
 * Phase 2: records the transfers of the blocks above the solidified one as pending, at most
 * `maxBlocks`. Solidified blocks are phase 1's: reading them at the head too would read them twice.
 */
const seeUpTo = async (
  ctx: ChainContext,
  node: TronNodeClient,
  at: { head: BlockRef; solid: BlockRef; decidedUpTo: number; maxBlocks: number },
): Promise<number> => {
  const stored = Number((await cursorOf(ctx, DEPOSIT_SEEN_CURSOR)) ?? 0n);
  let seenUpTo = Math.max(stored, at.decidedUpTo, at.solid.number);
  const last = Math.min(at.head.number, seenUpTo + at.maxBlocks);
  try {
    for (let n = seenUpTo + 1; n <= last; n += 1) {
      const transfers = await walletTransfers(ctx, await node.blockTransactionInfos(n, false));
      if (transfers.length > 0) {
        await ctx.prisma.chainDeposit.createMany({ data: transfers.map(depositRowOf), skipDuplicates: true });
      }
      seenUpTo = n;
    }
  } finally {
    await ctx.prisma.chainCursor.updateMany({
      where: { name: DEPOSIT_SEEN_CURSOR, blockNumber: { lt: BigInt(seenUpTo) } },
      data: { blockNumber: BigInt(seenUpTo) },
    });
  }
  return seenUpTo;
};

type PendingRow = { id: number; txid: string; logIndex: number; blockNumber: bigint };

const pendingUpTo = (ctx: ChainContext, block: number): Promise<PendingRow[]> =>
  ctx.prisma.chainDeposit.findMany({
    where: { status: 'pending', blockNumber: { lte: BigInt(block) } },
    select: { id: true, txid: true, logIndex: true, blockNumber: true },
  });

/** Moves the decided cursor from `from` to `to`; false when another watcher moved it first. */
const advanceCursor = async (ctx: ChainContext, from: number, to: number): Promise<boolean> => {
  const moved = await ctx.prisma.chainCursor.updateMany({
    where: { name: DEPOSIT_CURSOR, blockNumber: BigInt(from) },
    data: { blockNumber: BigInt(to) },
  });
  return moved.count === 1;
};

const cursorOf = async (ctx: ChainContext, name: string) =>
  (await ctx.prisma.chainCursor.findUnique({ where: { name } }))?.blockNumber;

const openCursors = async (ctx: ChainContext, solid: number): Promise<number> => {
  const existing = await cursorOf(ctx, DEPOSIT_CURSOR);
  if (existing !== undefined) return Number(existing);
  await ensureAccount(ctx.prisma, SYSTEM_ACCOUNTS.chainClearing);
  await ctx.prisma.chainCursor.createMany({
    data: [
      { name: DEPOSIT_CURSOR, blockNumber: BigInt(solid) },
      { name: DEPOSIT_SEEN_CURSOR, blockNumber: BigInt(solid) },
    ],
    skipDuplicates: true,
  });
  ctx.log.info({ block: solid }, 'deposit scanning starts at the solidified block');
  return Number((await cursorOf(ctx, DEPOSIT_CURSOR))!);
};

/** The transfers of these infos that go to a user's deposit address, with the user. */
const walletTransfers = async (ctx: ChainContext, infos: NodeTransactionInfo[]) => {
  const transfers = usdtTransfersOf(infos, ctx.env.USDT_CONTRACT);
  if (transfers.length === 0) return [];
  const wallets = await ctx.prisma.wallet.findMany({
    where: { depositAddress: { in: [...new Set(transfers.map((t) => t.to))] } },
    select: { userId: true, depositAddress: true },
  });
  const owner = new Map(wallets.map((w) => [w.depositAddress, w.userId]));
  return transfers.flatMap((t) => {
    const userId = owner.get(t.to);
    return userId === undefined ? [] : [{ ...t, userId }];
  });
};

/** Where a pending deposit the decided block did not hold is now. */
type Whereabouts =
  | { kind: 'solid'; transfers: WalletTransfer[] }
  | { kind: 'moved'; blockNumber: number }
  | { kind: 'gone' };

const decideBlock = async (
  ctx: ChainContext,
  node: TronNodeClient,
  block: { n: number; solid: BlockRef; transfers: WalletTransfer[]; due: PendingRow[] },
): Promise<number | 'taken'> => {
  const { n, solid, transfers } = block;
  const key = (t: { txid: string; logIndex: number }) => `${t.txid}:${t.logIndex}`;
  const inBlock = new Set(transfers.map(key));
  const missing = block.due.filter((row) => !inBlock.has(key(row)));
  const whereabouts = new Map<number, Whereabouts>();
  for (const row of missing) whereabouts.set(row.id, await locate(ctx, node, row.txid, solid));
  const relocated = [...whereabouts.values()].flatMap((w) => (w.kind === 'solid' ? w.transfers : []));
  await ensureMainAccounts(
    ctx,
    [...transfers, ...relocated].map((t) => t.userId),
  );

  return ctx.prisma.$transaction(
    async (tx) => {
      const [cursor] = await tx.$queryRaw<Array<{ block_number: bigint }>>`
        SELECT block_number FROM chain_cursors WHERE name = ${DEPOSIT_CURSOR} FOR UPDATE`;
      if (!cursor || Number(cursor.block_number) !== n - 1) return 'taken' as const;
      const credited = await decideDeposits(ctx, tx, [...transfers, ...relocated]);
      for (const row of missing) await settleMissing(tx, row.id, whereabouts.get(row.id)!);
      await tx.chainCursor.update({ where: { name: DEPOSIT_CURSOR }, data: { blockNumber: BigInt(n) } });
      return credited;
    },
    { timeout: 60_000 },
  );
};

/**
 * A pending deposit whose block (as seen at the head) is now solidified without it: a fork took
 * it out. Solidified elsewhere, it is decided from there; in a newer block, it waits for that
 * one; nowhere in the chain, it is dropped (if the transaction lands again later, the block that
 * holds it decides it then).
 */
const locate = async (
  ctx: ChainContext,
  node: TronNodeClient,
  txid: string,
  solid: BlockRef,
): Promise<Whereabouts> => {
  const solidInfo = await node.transactionInfo(txid, true);
  if (solidInfo && (solidInfo.blockNumber ?? Number.POSITIVE_INFINITY) <= solid.number) {
    return { kind: 'solid', transfers: await walletTransfers(ctx, [solidInfo]) };
  }
  const headInfo = await node.transactionInfo(txid, false);
  if (headInfo?.blockNumber !== undefined && succeeded(headInfo)) {
    return { kind: 'moved', blockNumber: headInfo.blockNumber };
  }
  return { kind: 'gone' };
};

const settleMissing = async (tx: Tx, id: number, w: Whereabouts) => {
  if (w.kind === 'moved') {
    await tx.chainDeposit.updateMany({
      where: { id, status: 'pending' },
      data: { blockNumber: BigInt(w.blockNumber) },
    });
    return;
  }
  // Still pending after a solid look-up: its log is not a credited transfer there (failed).
  await tx.chainDeposit.updateMany({ where: { id, status: 'pending' }, data: { status: 'dropped' } });
};
