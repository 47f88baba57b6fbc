import { Prisma, type PrismaClient } from '@gridbot/db';

export type InvariantMismatch =
  | { kind: 'account_balance'; account: string; balance: bigint; entriesSum: bigint }
  | { kind: 'transfer_unbalanced'; transferId: bigint; sum: bigint; legs: number };

export type InvariantReport = { ok: boolean; totalSum: bigint; mismatches: InvariantMismatch[] };

/**
 * The books' invariants (docs/ledger.md): all balances sum to zero, each cached balance equals the sum
 * of its entries, each transfer has ≥ 2 entries summing to zero. The three reads share one
 * REPEATABLE READ snapshot so transfers committing meanwhile cannot show up as false mismatches.
 */
export const checkInvariants = async (prisma: PrismaClient): Promise<InvariantReport> => {
  const [totals, accounts, transfers] = await prisma.$transaction(
    [
      prisma.$queryRaw<{ total: bigint }[]>`
        SELECT COALESCE(SUM(balance), 0)::bigint AS total FROM ledger_accounts`,
      prisma.$queryRaw<{ code: string; balance: bigint; entries_sum: bigint }[]>`
        SELECT a.code, a.balance, COALESCE(e.sum, 0)::bigint AS entries_sum
        FROM ledger_accounts a
        LEFT JOIN (SELECT account_id, SUM(amount) AS sum FROM ledger_entries GROUP BY account_id) e
          ON e.account_id = a.id
        WHERE a.balance <> COALESCE(e.sum, 0)
        ORDER BY a.code`,
      prisma.$queryRaw<{ id: bigint; sum: bigint; legs: number }[]>`
        SELECT t.id, COALESCE(SUM(e.amount), 0)::bigint AS sum, COUNT(e.id)::int AS legs
        FROM ledger_transfers t LEFT JOIN ledger_entries e ON e.transfer_id = t.id
        GROUP BY t.id
        HAVING COALESCE(SUM(e.amount), 0) <> 0 OR COUNT(e.id) < 2
        ORDER BY t.id`,
    ],
    { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead },
  );
  const totalSum = BigInt(totals[0]?.total ?? 0n);
  const mismatches: InvariantMismatch[] = [
    ...accounts.map((row) => ({
      kind: 'account_balance' as const,
      account: row.code,
      balance: BigInt(row.balance),
      entriesSum: BigInt(row.entries_sum),
    })),
    ...transfers.map((row) => ({
      kind: 'transfer_unbalanced' as const,
      transferId: BigInt(row.id),
      sum: BigInt(row.sum),
      legs: Number(row.legs),
    })),
  ];
  return { ok: totalSum === 0n && mismatches.length === 0, totalSum, mismatches };
};
