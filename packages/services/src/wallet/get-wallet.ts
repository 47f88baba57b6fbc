import { type getWallet, type TransactionType, USDT_NETWORK } from '@gridbot/contracts';
import type { WithdrawalKind, WithdrawalStatus, WithdrawalWaitingReason } from '@gridbot/db';
import { fromMicro } from '@gridbot/ledger';
import type { z } from 'zod';
import type { ServiceContext } from '../context/service-context';
import { walletAmounts } from './wallet-settings';
import { listWalletTransactions } from './wallet-transactions';
import { balancesView, withdrawalView } from './wallet-views';
import { liftableFromOf } from './withdrawal-guards';

export type WalletOverview = z.input<(typeof getWallet)['response']>;

export type GetWalletInput = {
  userId: number;
  days: number;
  page: number;
  limit: number;
  /** The previous page's `transactions.nextCursor` (docs/decisions.md#lists-paged-by-cursor-issue-22). */
  cursor?: string | undefined;
  type?: TransactionType | undefined;
};

type OpenWithdrawal = {
  id: number;
  kind: WithdrawalKind;
  status: WithdrawalStatus;
  amount: string;
  networkFee: string;
  toAddress: string;
  txid: string | null;
  reason: string | null;
  waitingReason: WithdrawalWaitingReason | null;
  reviewReason: string | null;
  releaseAt: string | null;
  createdAt: string;
  updatedAt: string;
};

type HeadRow = {
  main: bigint | null;
  fee: bigint | null;
  deposit_address: string | null;
  withdraw_address: string | null;
  withdraw_address_usable_from: Date | null;
  frozen_at: Date | null;
  allowance_used: bigint | null;
  open_withdrawals: OpenWithdrawal[];
};

// Balances, addresses, the freeze, the allowance used (the same rule as withdrawal-guards.ts) and
// the open withdrawals (whose sum is "held") in one statement and so one snapshot. Amounts travel as text inside the JSON: a BIGINT as a JSON number could lose digits.
const HEAD_SQL = `
SELECT (SELECT balance FROM ledger_accounts WHERE user_id = $1 AND sub_balance = 'main') AS main,
       (SELECT balance FROM ledger_accounts WHERE user_id = $1 AND sub_balance = 'fee') AS fee,
       w.deposit_address,
       w.withdraw_address,
       w.withdraw_address_usable_from,
       (SELECT frozen_at FROM wallet_freezes WHERE user_id = $1 AND lifted_at IS NULL) AS frozen_at,
       (SELECT sum(amount)::bigint FROM withdrawals
         WHERE user_id = $1 AND created_at > $2
           AND (status IN ('pending', 'approved', 'broadcast') OR (status = 'confirmed' AND decided_by = 'auto'))
       ) AS allowance_used,
       (SELECT coalesce(json_agg(json_build_object(
                 'id', x.id, 'kind', x.kind, 'status', x.status, 'amount', x.amount::text,
                 'networkFee', x.network_fee::text, 'toAddress', x.to_address, 'txid', x.txid,
                 'reason', x.reason, 'waitingReason', x.waiting_reason,
                 'reviewReason', x.review_reason, 'releaseAt', x.release_at,
                 'createdAt', x.created_at, 'updatedAt', x.updated_at
               ) ORDER BY x.id DESC), '[]'::json)
          FROM withdrawals x
         WHERE x.user_id = $1 AND x.status IN ('pending', 'approved', 'broadcast')) AS open_withdrawals
  FROM (SELECT 1) one
  LEFT JOIN wallets w ON w.user_id = $1`;

const DAY_MS = 86_400_000;

/**
 * The wallet screen (docs/wallet.md): balances (held = the open withdrawals), addresses, the
 * operator's amounts, the open withdrawals and a page of the last `days` days of transactions.
 * Two statements, run side by side: the head and the list.
 */
export const getWalletOverview = async (
  ctx: ServiceContext,
  input: GetWalletInput,
): Promise<WalletOverview> => {
  const since = new Date(ctx.clock.now().getTime() - input.days * DAY_MS);
  const [[head], transactions] = await Promise.all([
    ctx.prisma.$queryRawUnsafe<HeadRow[]>(
      HEAD_SQL,
      input.userId,
      new Date(ctx.clock.now().getTime() - DAY_MS),
    ),
    listWalletTransactions(ctx.prisma, { ...input, since }),
  ]);
  const open = (head?.open_withdrawals ?? []).map((w) =>
    withdrawalView({
      ...w,
      amount: BigInt(w.amount),
      networkFee: BigInt(w.networkFee),
      releaseAt: w.releaseAt ? new Date(w.releaseAt) : null,
      createdAt: new Date(w.createdAt),
      updatedAt: new Date(w.updatedAt),
    }),
  );
  const held = (head?.open_withdrawals ?? []).reduce((sum, w) => sum + BigInt(w.amount), 0n);
  const amounts = walletAmounts(ctx.env);
  const used = BigInt(head?.allowance_used ?? 0);
  const frozenAt = head?.frozen_at ? new Date(head.frozen_at) : null;
  return {
    balances: balancesView({ main: BigInt(head?.main ?? 0), fee: BigInt(head?.fee ?? 0), held }),
    network: USDT_NETWORK,
    token: 'USDT',
    depositAddress: head?.deposit_address ?? null,
    withdrawAddress: head?.withdraw_address ?? null,
    withdrawAddressUsableFrom: head?.withdraw_address_usable_from
      ? new Date(head.withdraw_address_usable_from).toISOString()
      : null,
    allowance: {
      limit: fromMicro(amounts.autoApproveUpTo),
      used: fromMicro(used),
      left: fromMicro(used >= amounts.autoApproveUpTo ? 0n : amounts.autoApproveUpTo - used),
    },
    frozen: frozenAt
      ? {
          since: frozenAt.toISOString(),
          liftableFrom: liftableFromOf(ctx.env, { frozenAt }).toISOString(),
        }
      : null,
    releaseDelayS: ctx.env.WITHDRAW_RELEASE_DELAY_S,
    minDeposit: fromMicro(amounts.minDeposit),
    minWithdraw: fromMicro(amounts.minWithdraw),
    withdrawFee: fromMicro(amounts.withdrawFee),
    pendingWithdrawals: open,
    transactions,
  };
};
