import { Prisma } from '@gridbot/db';
import { ALL_JOBS, type JobQueue, type QueueStats } from '@gridbot/jobs';
import { checkInvariants } from '@gridbot/ledger';
import type { ServiceContext } from '../context/service-context';
import { DEPOSIT_CURSOR, DEPOSIT_SEEN_CURSOR } from '../wallet/chain/scan-deposits';

/** A number of rows and their amounts, micro-USDT. */
export type CountAndSum = { count: number; amount: bigint };

/** The whole installation at a glance (docs/operations.md#operator-cli). Money in micro-USDT. */
export type SystemSummary = {
  at: Date;
  users: number;
  /** Coin bots in portfolios (removed ones excluded): running or paused; dry: no new buys (coin or user). */
  coinBots: { running: number; paused: number; dry: number };
  /** Which queue this process sees; an in-process queue shows only this process's own jobs. */
  queueKind: JobQueue['kind'];
  queues: QueueStats[];
  ledger: {
    /** Σ users' main balances and Σ fee balances (a fee balance may be below zero: docs/fees.md). */
    usersMain: bigint;
    usersFee: bigint;
    /** Each system account's balance by code. */
    system: Record<string, bigint>;
    /** docs/ledger.md: every balance sums to zero, matches its entries; every transfer balances. */
    invariants: { ok: boolean; totalSum: bigint; mismatches: number };
  };
  withdrawals: {
    /** Waiting for an operator's decision. */
    pending: CountAndSum;
    /** Approved or broadcast, not yet confirmed on chain. */
    inFlight: CountAndSum;
    /** Approved and waiting for the platform's wallet (docs/wallet.md#network-fees); part of inFlight. */
    waiting: CountAndSum;
  };
  /** The hot wallet as the watcher last read it (docs/operations.md#hot-wallet); null before the first reading. */
  hotWallet: HotWalletFigures | null;
  /** Sweeps of deposit addresses (docs/wallet.md#sweeps): open, confirmed, and the TRX they cost (sun). */
  sweeps: { open: CountAndSum; confirmed: CountAndSum; trxCostSun: bigint };
  /** The watcher's block cursors: deposits decided up to (solidified) and seen up to (head); null before its first pass. */
  watcher: { decidedUpTo: bigint | null; seenUpTo: bigint | null };
};

/** micro-USDT, sun, energy, bytes; the `*Since` fields: a shortage episode's start (null: none). */
export type HotWalletFigures = {
  address: string;
  usdt: bigint;
  trxSun: bigint;
  energyAvailable: bigint;
  energyLimit: bigint;
  bandwidthAvailable: bigint;
  energyPriceSun: bigint;
  readAt: Date;
  lowUsdtSince: Date | null;
  lowTrxSince: Date | null;
  waitingSince: Date | null;
};

type SweepSums = { open: boolean; status: string; count: number; total: bigint; cost: bigint }[];

type Sums = { kind: string; sub_balance: string | null; total: bigint }[];
type WithdrawalSums = { status: string; count: number; total: bigint }[];

const countAndSum = (rows: WithdrawalSums, statuses: readonly string[]): CountAndSum =>
  rows
    .filter((row) => statuses.includes(row.status))
    .reduce((sum, row) => ({ count: sum.count + row.count, amount: sum.amount + BigInt(row.total) }), {
      count: 0,
      amount: 0n,
    });

/**
 * One read of the installation for the operator: users, coin bots, queue depths, ledger totals with
 * the invariant check, withdrawals waiting or on their way, and the watcher's cursors. The figures
 * of one table come from one statement; the invariants from their own consistent snapshot.
 */
export const getSystemSummary = async (ctx: ServiceContext): Promise<SystemSummary> => {
  const { prisma } = ctx;
  const [users, running, paused, dry, sums, system, withdrawals, cursors, hotWallet, waiting, sweeps] =
    await prisma.$transaction(
      [
        prisma.user.count(),
        prisma.coinBot.count({ where: { deletedAt: null, running: true } }),
        prisma.coinBot.count({ where: { deletedAt: null, running: false } }),
        prisma.coinBot.count({ where: { deletedAt: null, OR: [{ dry: true }, { user: { dryAll: true } }] } }),
        prisma.$queryRaw<Sums>`
        SELECT kind::text AS kind, sub_balance, COALESCE(SUM(balance), 0)::bigint AS total
        FROM ledger_accounts WHERE kind = 'user' GROUP BY kind, sub_balance`,
        prisma.ledgerAccount.findMany({
          where: { kind: 'system' },
          select: { code: true, balance: true },
          orderBy: { code: 'asc' },
        }),
        prisma.$queryRaw<WithdrawalSums>`
        SELECT status::text AS status, COUNT(*)::int AS count, COALESCE(SUM(amount), 0)::bigint AS total
        FROM withdrawals WHERE status IN ('pending', 'approved', 'broadcast') GROUP BY status`,
        prisma.chainCursor.findMany({ where: { name: { in: [DEPOSIT_CURSOR, DEPOSIT_SEEN_CURSOR] } } }),
        prisma.hotWalletStatus.findFirst({ orderBy: { readAt: 'desc' } }),
        prisma.$queryRaw<WithdrawalSums>`
        SELECT 'waiting' AS status, COUNT(*)::int AS count, COALESCE(SUM(amount), 0)::bigint AS total
        FROM withdrawals WHERE status = 'approved' AND waiting_reason IS NOT NULL`,
        prisma.$queryRaw<SweepSums>`
        SELECT open_for IS NOT NULL AS open, status::text AS status, COUNT(*)::int AS count,
               COALESCE(SUM(amount), 0)::bigint AS total,
               COALESCE(SUM(COALESCE(topup_fee_sun, 0) + COALESCE(trx_burned_sun, 0)), 0)::bigint AS cost
        FROM sweeps GROUP BY 1, 2`,
      ],
      // One snapshot: the totals of users and system accounts belong to the same moment.
      { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead },
    );
  const invariants = await checkInvariants(prisma);
  const userSum = (subBalance: string) => BigInt(sums.find((s) => s.sub_balance === subBalance)?.total ?? 0n);
  const cursor = (name: string) => cursors.find((c) => c.name === name)?.blockNumber ?? null;
  return {
    at: ctx.clock.now(),
    users,
    coinBots: { running, paused, dry },
    queueKind: ctx.queue.kind,
    queues: await ctx.queue.stats(ALL_JOBS),
    ledger: {
      usersMain: userSum('main'),
      usersFee: userSum('fee'),
      system: Object.fromEntries(system.map((a) => [a.code, a.balance])),
      invariants: {
        ok: invariants.ok,
        totalSum: invariants.totalSum,
        mismatches: invariants.mismatches.length,
      },
    },
    withdrawals: {
      pending: countAndSum(withdrawals, ['pending']),
      inFlight: countAndSum(withdrawals, ['approved', 'broadcast']),
      waiting: countAndSum(waiting, ['waiting']),
    },
    watcher: { decidedUpTo: cursor(DEPOSIT_CURSOR), seenUpTo: cursor(DEPOSIT_SEEN_CURSOR) },
    hotWallet: hotWallet
      ? {
          address: hotWallet.address,
          usdt: hotWallet.usdt,
          trxSun: hotWallet.trxSun,
          energyAvailable: hotWallet.energyAvailable,
          energyLimit: hotWallet.energyLimit,
          bandwidthAvailable: hotWallet.bandwidthAvailable,
          energyPriceSun: hotWallet.energyPriceSun,
          readAt: hotWallet.readAt,
          lowUsdtSince: hotWallet.lowUsdtSince,
          lowTrxSince: hotWallet.lowTrxSince,
          waitingSince: hotWallet.waitingSince,
        }
      : null,
    sweeps: sweepFigures(sweeps),
  };
};

const sweepFigures = (rows: SweepSums): SystemSummary['sweeps'] => {
  const sum = (pick: (row: SweepSums[number]) => boolean): CountAndSum =>
    rows.filter(pick).reduce((t, r) => ({ count: t.count + r.count, amount: t.amount + BigInt(r.total) }), {
      count: 0,
      amount: 0n,
    });
  return {
    open: sum((r) => r.open),
    confirmed: sum((r) => r.status === 'confirmed'),
    trxCostSun: rows.reduce((t, r) => t + BigInt(r.cost), 0n),
  };
};
