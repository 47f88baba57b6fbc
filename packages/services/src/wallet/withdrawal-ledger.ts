import type { Prisma, Withdrawal } from '@gridbot/db';
import {
  type LedgerClient,
  SYSTEM_ACCOUNTS,
  type TransferLeg,
  transfer,
  userAccountCode,
} from '@gridbot/ledger';

/**
 * The three money moves of a withdrawal (docs/wallet.md#withdrawals), each a ledger transfer under
 * a key derived from the withdrawal, so a retry or a second worker can never move it twice:
 *
 * - hold (at request): user main −amount → withdrawals held +amount. The user sees it "on hold".
 * - settle (confirmed on chain): held −amount → chain clearing +(amount − fee), withdrawal fees +fee.
 *   Chain clearing mirrors the hot wallet, which has just paid out amount − fee.
 * - refund (rejected or failed, never broadcast or failed on chain): held −amount → user main +amount.
 *
 * Each runs inside the caller's transaction together with the withdrawal row's status change, so
 * the row and the books never disagree.
 */

type HoldInput = { userId: number; kind: Withdrawal['kind']; amount: bigint; requestKey: string };

export const holdWithdrawal = async (tx: LedgerClient, input: HoldInput) =>
  transfer(tx, {
    idempotencyKey: `withdrawal:${input.userId}:${input.requestKey}:hold`,
    type: input.kind,
    memo: { withdrawal: 'hold' },
    legs: [
      { account: userAccountCode(input.userId, 'main'), amount: -input.amount },
      { account: SYSTEM_ACCOUNTS.withdrawalsHeld, amount: input.amount },
    ],
  });

const withdrawalMemo = (w: Withdrawal, step: string): Prisma.InputJsonValue => ({
  withdrawal: step,
  withdrawalId: w.id,
  ...(w.txid ? { txid: w.txid } : {}),
});

export const settleWithdrawal = async (tx: LedgerClient, w: Withdrawal) => {
  const legs: TransferLeg[] = [
    { account: SYSTEM_ACCOUNTS.withdrawalsHeld, amount: -w.amount },
    { account: SYSTEM_ACCOUNTS.chainClearing, amount: w.amount - w.networkFee },
  ];
  if (w.networkFee > 0n) legs.push({ account: SYSTEM_ACCOUNTS.withdrawalFees, amount: w.networkFee });
  return transfer(tx, {
    idempotencyKey: `withdrawal:${w.id}:settle`,
    type: w.kind,
    memo: withdrawalMemo(w, 'settle'),
    legs,
  });
};

export const refundWithdrawal = async (tx: LedgerClient, w: Withdrawal) =>
  transfer(tx, {
    idempotencyKey: `withdrawal:${w.id}:refund`,
    type: w.kind,
    memo: withdrawalMemo(w, 'refund'),
    legs: [
      { account: SYSTEM_ACCOUNTS.withdrawalsHeld, amount: -w.amount },
      { account: userAccountCode(w.userId, 'main'), amount: w.amount },
    ],
  });
