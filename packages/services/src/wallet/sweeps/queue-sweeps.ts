import type { Prisma, PrismaClient } from '@gridbot/db';
import { toMicro } from '@gridbot/ledger';
import type { ChainContext } from '../chain/scan-deposits';

type Db = PrismaClient | Prisma.TransactionClient;

/** A deposit address with credited USDT not swept yet. */
export type SweepableAddress = {
  address: string;
  userId: number;
  derivationIndex: number;
  /** micro-USDT credited to the user from this address and not swept (or being swept) yet. */
  sweepable: bigint;
  /** A sweep of it is already open. */
  open: boolean;
};

// Only credited money counts (docs/wallet.md#sweeps): a pending deposit is not the user's yet and
// one under the minimum was never credited. What open or confirmed sweeps took is not counted again.
const SWEEPABLE_SQL = `
WITH credited AS (
  SELECT to_address AS address, SUM(amount)::bigint AS credited
    FROM chain_deposits WHERE status = 'credited' GROUP BY to_address
), swept AS (
  SELECT address, SUM(amount)::bigint AS swept
    FROM sweeps WHERE status NOT IN ('failed', 'cancelled') AND id <> $3::int GROUP BY address
)
SELECT c.address, w.user_id, w.derivation_index,
       (c.credited - COALESCE(s.swept, 0))::bigint AS sweepable,
       EXISTS (SELECT 1 FROM sweeps o WHERE o.open_for = c.address AND o.id <> $3::int) AS open
  FROM credited c
  JOIN wallets w ON w.deposit_address = c.address
  LEFT JOIN swept s ON s.address = c.address
 WHERE c.credited - COALESCE(s.swept, 0) >= $1::bigint AND ($2::text IS NULL OR c.address = $2)
 ORDER BY sweepable DESC, c.address`;

type Row = { address: string; user_id: number; derivation_index: number; sweepable: bigint; open: boolean };

/**
 * Deposit addresses holding at least `minimum` of credited, unswept USDT (default SWEEP_MIN_USDT),
 * largest first; `excludeSweep` leaves one sweep's own amount out (the sweeper re-checking it).
 */
export const listSweepable = async (
  db: Db,
  input: { minimum: bigint; address?: string | undefined; excludeSweep?: number },
): Promise<SweepableAddress[]> => {
  const rows = await db.$queryRawUnsafe<Row[]>(
    SWEEPABLE_SQL,
    input.minimum,
    input.address ?? null,
    input.excludeSweep ?? 0,
  );
  return rows.map((r) => ({
    address: r.address,
    userId: r.user_id,
    derivationIndex: r.derivation_index,
    sweepable: BigInt(r.sweepable),
    open: r.open,
  }));
};

/**
 * Queues a sweep of every eligible address without an open one (or of `address` only): a row
 * `queued` that the sweeper (in the watcher process, which holds the keys) carries out. The CLI's
 * `sweeps run` calls this; it holds no key and sends nothing. One open sweep per address (unique
 * `open_for`), so two requests at once queue it once. Returns the sweeps queued.
 */
export const queueSweeps = async (
  ctx: Pick<ChainContext, 'prisma' | 'env'>,
  input: { requestedBy: string; address?: string | undefined },
) => {
  const eligible = await listSweepable(ctx.prisma, {
    minimum: toMicro(ctx.env.SWEEP_MIN_USDT),
    address: input.address,
  });
  const wanted = eligible.filter((e) => !e.open);
  if (wanted.length === 0) return [];
  await ctx.prisma.sweep.createMany({
    data: wanted.map((e) => ({
      userId: e.userId,
      address: e.address,
      openFor: e.address,
      amount: e.sweepable,
      status: 'queued' as const,
      requestedBy: input.requestedBy,
    })),
    skipDuplicates: true,
  });
  return ctx.prisma.sweep.findMany({
    where: { openFor: { in: wanted.map((e) => e.address) }, status: 'queued' },
    orderBy: { id: 'asc' },
  });
};
