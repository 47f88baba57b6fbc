import type { Withdrawal as WithdrawalView } from '@gridbot/contracts';
import type { Prisma, PrismaClient, Withdrawal } from '@gridbot/db';
import { fromMicro } from '@gridbot/ledger';

type Db = PrismaClient | Prisma.TransactionClient;

/** A user's balances in micro-USDT: main and fee from the ledger, held = their open withdrawals. */
export type BalancesMicro = { main: bigint; fee: bigint; held: bigint };

/** Withdrawal states whose amount is still held (docs/wallet.md#held). */
export const HELD_STATUSES = ['pending', 'approved', 'broadcast'] as const;

/**
 * The three balances in one statement, so they come from one snapshot: `held` is the sum of the
 * user's withdrawals not yet confirmed or refunded, which is exactly their share of
 * system:withdrawals_held (hold, settle and refund change it in the row's own transaction).
 */
export const readBalances = async (db: Db, userId: number): Promise<BalancesMicro> => {
  const [row] = await db.$queryRawUnsafe<{ main: bigint | null; fee: bigint | null; held: bigint | null }[]>(
    `SELECT (SELECT balance FROM ledger_accounts WHERE user_id = $1 AND sub_balance = 'main') AS main,
            (SELECT balance FROM ledger_accounts WHERE user_id = $1 AND sub_balance = 'fee') AS fee,
            (SELECT sum(amount)::bigint FROM withdrawals
              WHERE user_id = $1 AND status IN ('pending', 'approved', 'broadcast')) AS held`,
    userId,
  );
  return { main: BigInt(row?.main ?? 0), fee: BigInt(row?.fee ?? 0), held: BigInt(row?.held ?? 0) };
};

export const balancesView = (balances: BalancesMicro) => ({
  main: fromMicro(balances.main),
  fee: fromMicro(balances.fee),
  held: fromMicro(balances.held),
});

type WithdrawalFields = Pick<
  Withdrawal,
  | 'id'
  | 'kind'
  | 'status'
  | 'amount'
  | 'networkFee'
  | 'toAddress'
  | 'txid'
  | 'reason'
  | 'reviewReason'
  | 'releaseAt'
  | 'createdAt'
  | 'updatedAt'
  | 'waitingReason'
>;

export const withdrawalView = (w: WithdrawalFields): WithdrawalView => ({
  id: String(w.id),
  type: w.kind,
  status: w.status,
  amount: fromMicro(w.amount),
  networkFee: fromMicro(w.networkFee),
  receives: fromMicro(w.amount - w.networkFee),
  address: w.toAddress,
  txid: w.txid,
  reason: w.reason,
  // Only an approved withdrawal waits for the platform's wallet (docs/wallet.md#network-fees).
  waitingReason: w.status === 'approved' ? (w.waitingReason ?? null) : null,
  reviewReason: w.reviewReason,
  releaseAt: w.releaseAt ? w.releaseAt.toISOString() : null,
  createdAt: w.createdAt.toISOString(),
  updatedAt: w.updatedAt.toISOString(),
});
