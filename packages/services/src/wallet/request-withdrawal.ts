import { randomUUID } from 'node:crypto';
import type { Withdrawal as WithdrawalView } from '@gridbot/contracts';
import type { Withdrawal, WithdrawalKind } from '@gridbot/db';
import { isLedgerError, openAccounts, SYSTEM_ACCOUNTS, toMicro } from '@gridbot/ledger';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { isTronAddress } from './tron-keys';
import { walletAmounts } from './wallet-settings';
import { balancesView, readBalances, withdrawalView } from './wallet-views';
import { holdWithdrawal } from './withdrawal-ledger';

export type RequestWithdrawalInput = {
  userId: number;
  /** USDT, network fee included (the contract checked ≥ 11 and 6 decimals). */
  summ: string;
  to: 'address' | 'exchange';
  /** The client's Idempotency-Key: a retry with it returns the first request's withdrawal. */
  idempotencyKey?: string | undefined;
};

const kindOf = (to: RequestWithdrawalInput['to']): WithdrawalKind =>
  to === 'exchange' ? 'withdraw_exchange' : 'withdraw';

/**
 * Where the money goes: the saved withdrawal address, or the TRC20 USDT deposit address of the
 * user's own exchange account, asked from the exchange with the user's keys.
 */
const destinationOf = async (ctx: ServiceContext, input: RequestWithdrawalInput): Promise<string> => {
  if (input.to === 'address') {
    const wallet = await ctx.prisma.wallet.findUnique({
      where: { userId: input.userId },
      select: { withdrawAddress: true },
    });
    if (!wallet?.withdrawAddress) throw new AppError('WITHDRAW_ADDRESS_MISSING');
    return wallet.withdrawAddress;
  }
  const account = await ctx.prisma.exchangeAccount.findFirst({
    where: { userId: input.userId },
    select: { id: true },
  });
  if (!account) throw new AppError('NO_API_CONNECTION');
  const client = await ctx.exchanges.forAccount(account.id);
  const { address } = await client.fetchDepositAddress('USDT', 'TRC20');
  if (!isTronAddress(address)) throw new AppError('WITHDRAW_ADDRESS_FORMAT');
  return address;
};

/** The same request again: its withdrawal, or REQUEST_CONFLICT when the key was used for another. */
const replayOf = (found: Withdrawal, input: RequestWithdrawalInput, amount: bigint): Withdrawal => {
  if (found.userId !== input.userId || found.amount !== amount || found.kind !== kindOf(input.to)) {
    throw new AppError('REQUEST_CONFLICT');
  }
  return found;
};

/**
 * Requests a withdrawal (docs/wallet.md#withdrawals): the amount (network fee included) is held
 * from main and the withdrawal row written in one database transaction, so a hold never exists
 * without its row or the reverse. Up to the operator's limit it is approved at once (`auto`),
 * above it waits `pending` for an operator. The ledger refuses a hold larger than main
 * (INSUFFICIENT_FUNDS) and the transaction then writes nothing; concurrent requests queue on the
 * balance's row lock, so they can never overdraw it. With an Idempotency-Key, the hold is keyed by
 * it and the row carries it: a retry, even concurrent, returns the same withdrawal.
 */
export const requestWithdrawal = async (
  ctx: ServiceContext,
  input: RequestWithdrawalInput,
): Promise<{ withdrawal: WithdrawalView; balances: ReturnType<typeof balancesView> }> => {
  const amounts = walletAmounts(ctx.env);
  const amount = toMicro(input.summ);
  if (amount <= amounts.withdrawFee) {
    throw new AppError('VALIDATION', [{ path: 'summ', message: 'must be more than the network fee' }]);
  }
  const requestKey = input.idempotencyKey ? `${input.userId}:${input.idempotencyKey}` : undefined;
  const earlier = requestKey ? await ctx.prisma.withdrawal.findUnique({ where: { requestKey } }) : null;
  let withdrawal = earlier ? replayOf(earlier, input, amount) : undefined;
  if (!withdrawal) {
    const toAddress = await destinationOf(ctx, input);
    const now = ctx.clock.now();
    const auto = amount <= amounts.autoApproveUpTo;
    withdrawal = await ctx.prisma
      .$transaction(async (tx) => {
        // Opened in the transaction, so a refused hold leaves the ledger as it was. The fee account
        // is where the network fee goes when the watcher settles: made before any withdrawal exists.
        await openAccounts(tx, [SYSTEM_ACCOUNTS.withdrawalsHeld, SYSTEM_ACCOUNTS.withdrawalFees]);
        const hold = await holdWithdrawal(tx, {
          userId: input.userId,
          kind: kindOf(input.to),
          amount,
          requestKey: input.idempotencyKey ?? randomUUID(),
        });
        if (hold.replayed) {
          // A concurrent retry committed first: its row was written with the hold.
          const found = await tx.withdrawal.findUniqueOrThrow({ where: { holdTransferId: hold.id } });
          return replayOf(found, input, amount);
        }
        return tx.withdrawal.create({
          data: {
            userId: input.userId,
            kind: kindOf(input.to),
            toAddress,
            amount,
            networkFee: amounts.withdrawFee,
            status: auto ? 'approved' : 'pending',
            requestKey: requestKey ?? null,
            holdTransferId: hold.id,
            ...(auto ? { decidedBy: 'auto', approvedAt: now } : {}),
          },
        });
      })
      .catch((error: unknown) => {
        // The held account exists (opened in the transaction): a missing one is the user's main, and a user who
        // never had money has nothing to withdraw.
        throw isLedgerError(error, 'ACCOUNT_NOT_FOUND') ? new AppError('INSUFFICIENT_FUNDS') : error;
      });
    ctx.log.info(
      { userId: input.userId, withdrawalId: withdrawal.id, amount: input.summ, status: withdrawal.status },
      'withdrawal requested',
    );
  }
  return {
    withdrawal: withdrawalView(withdrawal),
    balances: balancesView(await readBalances(ctx.prisma, input.userId)),
  };
};
