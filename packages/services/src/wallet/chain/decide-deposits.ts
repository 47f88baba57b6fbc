import { MIN_DEPOSIT_USDT } from '@gridbot/contracts';
import type { Prisma } from '@gridbot/db';
import { ensureUserAccounts, SYSTEM_ACCOUNTS, toMicro, transfer, userAccountCode } from '@gridbot/ledger';
import { creditBelowMinimum } from './credit-below-minimum';
import type { ChainContext } from './scan-deposits';
import type { UsdtTransfer } from './usdt-transfers';

/** A USDT transfer to a user's deposit address. */
export type WalletTransfer = UsdtTransfer & { userId: number };

type Tx = Prisma.TransactionClient;
type LockedRow = { id: number; txid: string; log_index: number; status: string };

export const depositRowOf = (t: WalletTransfer) => ({
  txid: t.txid,
  logIndex: t.logIndex,
  userId: t.userId,
  toAddress: t.to,
  fromAddress: t.from,
  amount: t.amount,
  blockNumber: BigInt(t.blockNumber),
  blockTime: t.blockTime,
  status: 'pending' as const,
});

/** Opens the main balances that do not exist yet (one read when they all do). */
export const ensureMainAccounts = async (ctx: ChainContext, userIds: number[]): Promise<void> => {
  const wanted = [...new Set(userIds)];
  if (wanted.length === 0) return;
  const existing = await ctx.prisma.ledgerAccount.findMany({
    where: { code: { in: wanted.map((id) => userAccountCode(id, 'main')) } },
    select: { userId: true },
  });
  const open = new Set(existing.map((a) => a.userId));
  for (const id of wanted) if (!open.has(id)) await ensureUserAccounts(ctx.prisma, id);
};

const LOCK_SQL = `SELECT id, txid, log_index, status::text AS status FROM chain_deposits
  WHERE (txid, log_index) IN (SELECT * FROM unnest($1::text[], $2::int[]))
  ORDER BY id FOR UPDATE`;

const DECIDE_SQL = `UPDATE chain_deposits AS d
  SET status = v.status::chain_deposit_status, ledger_transfer_id = v.transfer_id,
      block_number = v.block_number, block_time = v.block_time, updated_at = now()
  FROM unnest($1::int[], $2::text[], $3::bigint[], $4::bigint[], $5::timestamptz[])
    AS v(id, status, transfer_id, block_number, block_time)
  WHERE d.id = v.id`;

/**
 * Decides solidified transfers inside the caller's transaction (docs/wallet.md#deposits): records
 * the new ones, locks every row, and for each row still pending (or dropped, when a fork's
 * transaction landed after all) books the `deposit` transfer — key `deposit:<txid>:<log index>`,
 * chain clearing −x, user main +x — or marks it `not_credited` under the minimum; then one update
 * of the rows and one insert of the `deposit_credited` notifications; then, for each user with a
 * new deposit under the minimum, credits their uncredited ones together once they reach it
 * (credit-below-minimum.ts). Rows decided before are left alone, so a transfer seen any number of
 * times is credited once. Returns how many were credited.
 */
export const decideDeposits = async (
  ctx: ChainContext,
  tx: Tx,
  transfers: WalletTransfer[],
): Promise<number> => {
  if (transfers.length === 0) return 0;
  await tx.chainDeposit.createMany({ data: transfers.map(depositRowOf), skipDuplicates: true });
  const locked = await tx.$queryRawUnsafe<LockedRow[]>(
    LOCK_SQL,
    transfers.map((t) => t.txid),
    transfers.map((t) => t.logIndex),
  );
  const rows = new Map(locked.map((r) => [`${r.txid}:${r.log_index}`, r]));
  const minimum = toMicro(MIN_DEPOSIT_USDT);
  const decided: Array<{ id: number; status: string; transferId: string | null; t: WalletTransfer }> = [];
  for (const t of transfers) {
    const row = rows.get(`${t.txid}:${t.logIndex}`);
    if (!row || (row.status !== 'pending' && row.status !== 'dropped')) continue;
    row.status = 'decided';
    if (t.amount < minimum) {
      ctx.log.info({ txid: t.txid, amount: t.amount.toString() }, 'deposit under the minimum: not credited');
      decided.push({ id: row.id, status: 'not_credited', transferId: null, t });
      continue;
    }
    const booked = await transfer(tx, {
      idempotencyKey: `deposit:${t.txid}:${t.logIndex}`,
      type: 'deposit',
      memo: { depositId: row.id, txid: t.txid, logIndex: t.logIndex },
      legs: [
        { account: SYSTEM_ACCOUNTS.chainClearing, amount: -t.amount },
        { account: userAccountCode(t.userId, 'main'), amount: t.amount },
      ],
    });
    decided.push({ id: row.id, status: 'credited', transferId: booked.id.toString(), t });
  }
  if (decided.length === 0) return 0;
  await tx.$executeRawUnsafe(
    DECIDE_SQL,
    decided.map((d) => d.id),
    decided.map((d) => d.status),
    decided.map((d) => d.transferId),
    decided.map((d) => String(d.t.blockNumber)),
    decided.map((d) => d.t.blockTime.toISOString()),
  );
  const credited = decided.filter((d) => d.status === 'credited');
  await tx.notification.createMany({
    data: credited.map(({ id, t }) => ({
      userId: t.userId,
      kind: 'deposit_credited',
      data: { depositId: id, txid: t.txid, amount: t.amount.toString() },
      dedupeKey: `deposit_credited:${t.txid}:${t.logIndex}`,
    })),
    skipDuplicates: true,
  });
  const small = decided.filter((d) => d.status === 'not_credited').map((d) => d.t.userId);
  return credited.length + (small.length > 0 ? await creditBelowMinimum(ctx, tx, small) : 0);
};
