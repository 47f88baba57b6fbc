import {
  MIN_DEPOSIT_USDT,
  type Transaction,
  type TransactionReason,
  type TransactionStatus,
  type TransactionType,
  ZTransactionType,
} from '@gridbot/contracts';
import type { PrismaClient } from '@gridbot/db';
import { maskUsername } from '@gridbot/domain';
import { fromMicro, type SubBalance, toMicro } from '@gridbot/ledger';
import { z } from 'zod';
import { cursorPages, keysetPage, pagePosition, ZCursorId, ZCursorInstant } from '../paging/keyset-cursor';

/**
 * The wallet's transaction list (docs/wallet.md#transaction-list): one line per ledger entry of the
 * user's main and fee balances, plus the deposits seen on chain that have no entry yet (pending,
 * or not credited under the minimum). Each line is joined to what explains it: its chain deposit,
 * its withdrawal (hold and refund), the other user of a transfer. Rules:
 * - a transfer is booked once, as `transfer_out`: the sender's entry (negative) shows as
 *   `transfer_out`, the recipient's (positive) as `transfer_in`;
 * - a top-up (`deposit_balance`) is one line, its fee side (+x, balance `fee`); its main side is
 *   the same money and is not listed again;
 * - a withdrawal shows its hold (−amount, with the withdrawal's current status) and, when it was
 *   rejected or failed, its refund as a line of its own (+amount);
 * - a deposit under the minimum, pending or not credited, says so (`reason: below_minimum`); the
 *   one transfer that credited several of them together is one line of their sum
 *   (`below_minimum_combined`, no single txid or sender) (docs/wallet.md#deposits-under-the-minimum).
 */

type Row = {
  id: string | null;
  /** The line's place among lines of the same instant: its ledger entry's id, or minus its deposit's. */
  seq: bigint;
  type: string;
  balance: SubBalance;
  amount: bigint;
  status: string;
  network_fee: bigint | null;
  txid: string | null;
  address: string | null;
  counterparty_uid: number | null;
  counterparty_username: string | null;
  /** Deposits its ledger transfer credited (more than one: deposits under the minimum, together). */
  deposits_combined: bigint;
  memo: unknown;
  created_at: Date;
  updated_at: Date;
  total: bigint | null;
};

// Two steps: the window's lines with only what orders and filters them (entry, account, transfer
// type; deposits without an entry), counted; then the details joined for the page's rows alone,
// so a heavy trader's thousands of fee lines cost a count, not thousands of joins. Lines are in
// one unique order, newest first by (created_at, seq): seq is the ledger entry's id, or minus the
// deposit's id for a deposit without an entry. A page after a cursor is the lines after its key
// (docs/decisions.md#lists-paged-by-cursor-issue-22); $6/$7 NULL: the first page, or an offset.
// The ledger side reads ledger_entries (account_id, created_at, id).
const LIST_SQL = `
WITH lines AS (
  SELECT e.id AS seq, e.created_at, e.transfer_id, a.sub_balance AS balance, e.amount, a.user_id,
         CASE WHEN t.type = 'transfer_out' AND e.amount > 0 THEN 'transfer_in' ELSE t.type::text END AS type,
         NULL::int AS deposit_id
    FROM ledger_accounts a
    JOIN ledger_entries e ON e.account_id = a.id
    JOIN ledger_transfers t ON t.id = e.transfer_id
   WHERE a.user_id = $1
     AND e.created_at >= $2::timestamptz
     AND NOT (t.type = 'deposit_balance' AND a.sub_balance = 'main')
  UNION ALL
  SELECT -d.id::bigint, d.created_at, NULL, 'main', d.amount, d.user_id, 'deposit', d.id
    FROM chain_deposits d
   WHERE d.user_id = $1 AND d.status IN ('pending', 'not_credited') AND d.created_at >= $2::timestamptz
),
filtered AS (SELECT * FROM lines WHERE $3::text IS NULL OR type = $3::text),
page AS (
  SELECT * FROM filtered
   WHERE $6::timestamptz IS NULL OR (created_at, seq) < ($6::timestamptz, $7::bigint)
   ORDER BY created_at DESC, seq DESC LIMIT $4::int OFFSET $5::int
)
SELECT CASE WHEN $8::boolean THEN (SELECT count(*) FROM filtered) END AS total, shown.*
  FROM (SELECT 1) one
  LEFT JOIN LATERAL (
    SELECT CASE WHEN p.deposit_id IS NULL THEN 't' || p.transfer_id || '-' || p.balance
                ELSE 'd' || p.deposit_id END AS id,
           p.seq,
           p.type,
           p.balance,
           p.amount,
           CASE WHEN d.id IS NOT NULL THEN d.status::text
                WHEN p.type = 'deposit' THEN 'credited'
                WHEN coalesce(wh.id, wr.id) IS NOT NULL THEN coalesce(wh.status, wr.status)::text
                ELSE 'confirmed' END AS status,
           coalesce(wh.network_fee, wr.network_fee) AS network_fee,
           coalesce(d.txid, wh.txid, wr.txid) AS txid,
           coalesce(d.from_address, wh.to_address, wr.to_address) AS address,
           cp.uid AS counterparty_uid,
           cp.username AS counterparty_username,
           coalesce(dc.n, 0) AS deposits_combined,
           t.memo,
           p.created_at,
           coalesce(wh.updated_at, wr.updated_at, d.updated_at, p.created_at) AS updated_at
      FROM page p
      LEFT JOIN ledger_transfers t ON t.id = p.transfer_id
      LEFT JOIN chain_deposits dp ON dp.id = p.deposit_id
      LEFT JOIN LATERAL (
        SELECT c.id, c.status, c.txid, c.from_address, c.updated_at, count(*) OVER () AS n
          FROM chain_deposits c
         WHERE c.ledger_transfer_id = p.transfer_id
         ORDER BY c.id DESC
         LIMIT 1
      ) dc ON true
      LEFT JOIN LATERAL (SELECT coalesce(dp.id, dc.id) AS id, coalesce(dp.status, dc.status) AS status,
                                CASE WHEN dc.n > 1 THEN NULL ELSE coalesce(dp.txid, dc.txid) END AS txid,
                                CASE WHEN dc.n > 1 THEN NULL
                                     ELSE coalesce(dp.from_address, dc.from_address) END AS from_address,
                                coalesce(dp.updated_at, dc.updated_at) AS updated_at) d ON true
      LEFT JOIN withdrawals wh ON wh.hold_transfer_id = p.transfer_id
      LEFT JOIN withdrawals wr ON wr.refund_transfer_id = p.transfer_id
      LEFT JOIN LATERAL (
        SELECT u.uid, u.username
          FROM ledger_entries o
          JOIN ledger_accounts oa ON oa.id = o.account_id
          JOIN users u ON u.id = oa.user_id
         WHERE p.type IN ('transfer_out', 'transfer_in') AND o.transfer_id = p.transfer_id
           AND oa.user_id <> p.user_id
         LIMIT 1
      ) cp ON true
     ORDER BY p.created_at DESC, p.seq DESC
  ) shown ON true`;

const TYPES = new Set<string>(ZTransactionType.options);
const MIN_DEPOSIT = toMicro(MIN_DEPOSIT_USDT);

/** Why a deposit line is as it is, where its status alone does not say it. */
const reasonOf = (row: Row): TransactionReason | null => {
  if (row.type !== 'deposit') return null;
  if (Number(row.deposits_combined) > 1) return 'below_minimum_combined';
  const waiting = row.status === 'pending' || row.status === 'not_credited';
  return waiting && BigInt(row.amount) < MIN_DEPOSIT ? 'below_minimum' : null;
};

/**
 * What a line says beside its type: the coin of a trade fee, the level of a licence, or a note
 * the booking wrote. Memos are written by other parts of the product, so each field is read only
 * when it is a non-empty string.
 */
export const noteOf = (memo: unknown): string | null => {
  if (typeof memo !== 'object' || memo === null || Array.isArray(memo)) return null;
  const fields = memo as Record<string, unknown>;
  for (const name of ['coin', 'level', 'note']) {
    const value = fields[name];
    if (typeof value === 'string' && value.trim() !== '') return value.trim().slice(0, 100);
  }
  return null;
};

const lineOf = (row: Row & { id: string }): Transaction => ({
  id: row.id,
  type: (TYPES.has(row.type) ? row.type : 'unknown') as TransactionType,
  status: row.status as TransactionStatus,
  balance: row.balance,
  amount: fromMicro(BigInt(row.amount)),
  networkFee: row.network_fee === null ? null : fromMicro(BigInt(row.network_fee)),
  txid: row.txid,
  address: row.address,
  counterparty:
    row.counterparty_uid === null
      ? null
      : {
          uid: row.counterparty_uid,
          // A sender sees the recipient masked, as the lookup showed it (docs/wallet.md#internal-transfer):
          // a 1 USDT transfer must not reveal a handle the lookup hides. The recipient sees the sender.
          username:
            row.type === 'transfer_out' ? maskUsername(row.counterparty_username) : row.counterparty_username,
        },
  note: noteOf(row.memo),
  reason: reasonOf(row),
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

export type TransactionPage = {
  items: Transaction[];
  page: number;
  limit: number;
  total: number;
  hasMore: boolean;
  nextCursor: string | null;
};

/** A line's place in the list: its instant and its seq (see LIST_SQL). */
const ZLineKey = z.tuple([ZCursorInstant, ZCursorId]);

export type ListWalletTransactionsInput = {
  userId: number;
  /** The window: lines from this instant on. */
  since: Date;
  type?: TransactionType | undefined;
  limit: number;
  /** The spec's page (by offset); not used with a cursor. */
  page: number;
  /** The previous page's nextCursor. */
  cursor?: string | undefined;
  /** Count the window's lines (`total`); false leaves it 0 and spares the count. */
  count?: boolean;
};

/** One statement: the page, newest first, and the number of lines in the window. */
export const listWalletTransactions = async (
  prisma: PrismaClient,
  input: ListWalletTransactionsInput,
): Promise<TransactionPage> => {
  const position = pagePosition(input, ZLineKey);
  const [afterAt, afterSeq] = position.after ?? [null, null];
  const rows = await prisma.$queryRawUnsafe<Row[]>(
    LIST_SQL,
    input.userId,
    input.since,
    input.type ?? null,
    input.limit + 1,
    position.offset,
    afterAt,
    afterSeq,
    input.count ?? true,
  );
  const total = Number(rows[0]?.total ?? 0);
  const shown = rows.filter((row): row is Row & { id: string } => row.id !== null);
  const { rows: lines, nextCursor } = keysetPage(shown, input.limit, (row) => [
    row.created_at.toISOString(),
    String(row.seq),
  ]);
  return {
    items: lines.map(lineOf),
    page: input.page,
    limit: input.limit,
    total,
    hasMore: nextCursor !== null,
    nextCursor,
  };
};

/**
 * Every line of a user's window, newest first, read page by page by keyset (`batch` lines a
 * statement, without counting): what an export of the history iterates. Lines booked while it
 * runs are not in it, and none is read twice or missed.
 */
export async function* walletTransactionsByKeyset(
  prisma: PrismaClient,
  input: { userId: number; since: Date; type?: TransactionType | undefined; batch?: number },
): AsyncGenerator<Transaction> {
  const pages = cursorPages((cursor) =>
    listWalletTransactions(prisma, {
      userId: input.userId,
      since: input.since,
      type: input.type,
      limit: input.batch ?? 500,
      page: 1,
      cursor,
      count: false,
    }),
  );
  for await (const lines of pages) yield* lines;
}

/**
 * The list line of a transfer just booked, for a call's answer (a top-up, a transfer): the same
 * id and fields the list will show for it.
 */
export const bookedLine = (input: {
  transferId: bigint;
  type: TransactionType;
  balance: SubBalance;
  amount: bigint;
  createdAt: Date;
  counterparty?: { uid: number; username: string | null } | undefined;
}): Transaction => ({
  id: `t${input.transferId}-${input.balance}`,
  type: input.type,
  status: 'confirmed',
  balance: input.balance,
  amount: fromMicro(input.amount),
  networkFee: null,
  txid: null,
  address: null,
  counterparty: input.counterparty ?? null,
  note: null,
  reason: null,
  createdAt: input.createdAt.toISOString(),
  updatedAt: input.createdAt.toISOString(),
});
