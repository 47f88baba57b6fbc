import { MIN_DEPOSIT_USDT } from '@gridbot/contracts';
import type { Prisma } from '@gridbot/db';
import { SYSTEM_ACCOUNTS, toMicro, transfer, userAccountCode } from '@gridbot/ledger';
import type { ChainContext } from './scan-deposits';

type Tx = Prisma.TransactionClient;
type SmallDeposit = { id: number; txid: string; amount: bigint };

const LOCK_SQL = `SELECT id, txid, amount FROM chain_deposits
  WHERE user_id = $1 AND status = 'not_credited' ORDER BY id FOR UPDATE`;

const CREDIT_SQL = `UPDATE chain_deposits SET status = 'credited', ledger_transfer_id = $1, updated_at = now()
  WHERE id = ANY($2::int[]) AND status = 'not_credited'`;

/**
 * Deposits under the minimum (docs/wallet.md#deposits-under-the-minimum), inside the caller's
 * transaction — the one deciding the solidified block that added a deposit under the minimum:
 * once a user's uncredited ones (`not_credited`) reach the minimum in total, they are credited
 * together, one `deposit` transfer of their sum (key `deposit:below_minimum:<highest deposit id>`,
 * chain clearing −sum, user main +sum), each row `credited` with that transfer, and one
 * `deposit_credited` notification of the sum. The rows are locked first and change only from
 * `not_credited`, so a block decided twice, or by two watchers, credits them once. Returns how many
 * deposits were credited.
 */
export const creditBelowMinimum = async (ctx: ChainContext, tx: Tx, userIds: number[]): Promise<number> => {
  const minimum = toMicro(MIN_DEPOSIT_USDT);
  let credited = 0;
  for (const userId of [...new Set(userIds)].sort((a, b) => a - b)) {
    const rows = await tx.$queryRawUnsafe<SmallDeposit[]>(LOCK_SQL, userId);
    const total = rows.reduce((sum, row) => sum + BigInt(row.amount), 0n);
    if (rows.length === 0 || total < minimum) continue;
    const last = rows[rows.length - 1]!;
    const ids = rows.map((row) => row.id);
    const booked = await transfer(tx, {
      idempotencyKey: `deposit:below_minimum:${last.id}`,
      type: 'deposit',
      memo: { depositIds: ids, belowMinimum: true },
      legs: [
        { account: SYSTEM_ACCOUNTS.chainClearing, amount: -total },
        { account: userAccountCode(userId, 'main'), amount: total },
      ],
    });
    await tx.$executeRawUnsafe(CREDIT_SQL, booked.id, ids);
    await tx.notification.createMany({
      data: [
        {
          userId,
          kind: 'deposit_credited',
          data: { depositIds: ids, txid: last.txid, amount: total.toString(), deposits: ids.length },
          dedupeKey: `deposit_credited:below_minimum:${last.id}`,
        },
      ],
      skipDuplicates: true,
    });
    ctx.log.info(
      { userId, deposits: ids.length, amount: total.toString() },
      'deposits under the minimum credited together',
    );
    credited += ids.length;
  }
  return credited;
};
