import { randomUUID } from 'node:crypto';
import type { Exchange, Withdrawal as WithdrawalView } from '@gridbot/contracts';
import type { Prisma, Withdrawal, WithdrawalKind } from '@gridbot/db';
import { isLedgerError, openAccounts, SYSTEM_ACCOUNTS, toMicro } from '@gridbot/ledger';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { pickExchangeAccount } from '../exchange-keys/pick-exchange-account';
import { isTronAddress } from './tron-keys';
import { walletAmounts } from './wallet-settings';
import { balancesView, readBalances, withdrawalView } from './wallet-views';
import { queueAddressNotice } from './withdraw-address';
import { assertWithdrawDestination } from './withdraw-destination';
import {
  allowanceOf,
  assertNotFrozen,
  lockUserWithdrawals,
  releaseAtOf,
  usableFromOf,
} from './withdrawal-guards';
import { holdWithdrawal } from './withdrawal-ledger';
import { queuePendingAlert, queueRequestNotice, REVIEW_REASONS } from './withdrawal-notices';

export type RequestWithdrawalInput = {
  userId: number;
  /** USDT, network fee included (the contract checked ≥ 11 and 6 decimals). */
  summ: string;
  to: 'address' | 'exchange';
  /** With `to=exchange`: whose deposit address (required when the user has keys on several exchanges). */
  exchange?: Exchange | undefined;
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
  // The chosen venue's address; with keys on several exchanges a withdrawal never guesses.
  const account = await pickExchangeAccount(ctx.prisma, { ...input, ambiguous: 'refuse' });
  if (!account) throw new AppError('NO_API_CONNECTION');
  const client = await ctx.exchanges.forAccount(account.id);
  const { address } = await client.fetchDepositAddress('USDT', 'TRC20');
  if (!isTronAddress(address)) throw new AppError('WITHDRAW_ADDRESS_FORMAT');
  return address;
};

/**
 * An exchange deposit address seen for the first time is remembered with its lock, and its owner
 * told, in a transaction of its own that a refused withdrawal does not undo: whoever saved the API
 * keys chose it, so it waits like a new withdrawal address (docs/wallet.md#address-lock).
 */
const rememberExchangeAddress = async (ctx: ServiceContext, userId: number, address: string, now: Date) => {
  const usableFrom = usableFromOf(ctx.env, now);
  await ctx.prisma.$transaction(async (tx) => {
    const { count } = await tx.exchangeDepositAddress.createMany({
      data: [{ userId, address, firstSeenAt: now, usableFrom }],
      skipDuplicates: true,
    });
    if (count > 0) await queueAddressNotice(tx, { userId, address, target: 'exchange', at: now, usableFrom });
  });
};

/** When the destination may be used (null: always), read under the user's lock. */
const usableFromIn = async (
  tx: Prisma.TransactionClient,
  input: RequestWithdrawalInput,
  address: string,
): Promise<Date | null> => {
  if (input.to === 'exchange') {
    const seen = await tx.exchangeDepositAddress.findUniqueOrThrow({
      where: { userId_address: { userId: input.userId, address } },
    });
    return seen.usableFrom;
  }
  const wallet = await tx.wallet.findUniqueOrThrow({ where: { userId: input.userId } });
  if (wallet.withdrawAddress !== address) {
    // Changed since it was checked: a changed address is locked (or, with no lock, asked again).
    throw wallet.withdrawAddressUsableFrom
      ? new AppError('WITHDRAW_ADDRESS_LOCKED', undefined, wallet.withdrawAddressUsableFrom)
      : new AppError('REQUEST_CONFLICT');
  }
  return wallet.withdrawAddressUsableFrom;
};

/**
 * One user's requests run one after the other under their withdrawal lock: a burst of them (a
 * double-tapping client, or a script) waits its turn for a connection and the lock instead of
 * failing (Prisma's defaults are 2 s to get a connection and 5 s for the transaction).
 */
const REQUEST_TRANSACTION = { maxWait: 20_000, timeout: 30_000 };

/** The same request again: its withdrawal, or REQUEST_CONFLICT when the key was used for another. */
const replayOf = (found: Withdrawal, input: RequestWithdrawalInput, amount: bigint): Withdrawal => {
  if (found.userId !== input.userId || found.amount !== amount || found.kind !== kindOf(input.to)) {
    throw new AppError('REQUEST_CONFLICT');
  }
  return found;
};

/**
 * Requests a withdrawal (docs/wallet.md#withdrawals). Refused, changing nothing, while withdrawals
 * are frozen, to an address that can never be the user's (docs/wallet.md#refused-addresses), or to
 * one still locked after it was set (WITHDRAW_ADDRESS_LOCKED). Otherwise, in one database
 * transaction under the user's withdrawal lock: the amount (network fee included) is held from
 * main, the row written, and the owner's `withdrawal_requested` notice queued. It is approved at
 * once (`auto`, released after WITHDRAW_RELEASE_DELAY_S) while the user's withdrawals of the last
 * 24 hours, this one included, stay within WITHDRAW_AUTO_APPROVE_USDT; else it waits `pending` for
 * an operator, who is alerted in the same transaction. The lock makes concurrent requests count
 * one after the other, so they cannot all slip under the allowance; the ledger refuses a hold
 * larger than main (INSUFFICIENT_FUNDS). With an Idempotency-Key, a retry returns the same
 * withdrawal.
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
    // Cheap refusals first: no exchange or node is asked for a frozen account.
    await assertNotFrozen(ctx.prisma, ctx.env, input.userId);
    const toAddress = await destinationOf(ctx, input);
    await assertWithdrawDestination(ctx, { userId: input.userId, address: toAddress });
    const now = ctx.clock.now();
    if (input.to === 'exchange') {
      // Refused for want of money before anything is remembered (the hold checks again under its lock).
      if ((await readBalances(ctx.prisma, input.userId)).main < amount)
        throw new AppError('INSUFFICIENT_FUNDS');
      await rememberExchangeAddress(ctx, input.userId, toAddress, now);
    }
    withdrawal = await ctx.prisma
      .$transaction(async (tx) => {
        await lockUserWithdrawals(tx, input.userId);
        await assertNotFrozen(tx, ctx.env, input.userId);
        const usableFrom = await usableFromIn(tx, input, toAddress);
        if (usableFrom && usableFrom > now)
          throw new AppError('WITHDRAW_ADDRESS_LOCKED', undefined, usableFrom);
        // Opened in the transaction, so a refused hold leaves the ledger as it was. The fee account
        // is where the network fee goes when the watcher settles: made before any withdrawal exists.
        await openAccounts(tx, [SYSTEM_ACCOUNTS.withdrawalsHeld, SYSTEM_ACCOUNTS.withdrawalFees]);
        const allowance = await allowanceOf(tx, ctx.env, input.userId, now);
        const auto = amount <= allowance.left;
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
        const created = await tx.withdrawal.create({
          data: {
            userId: input.userId,
            kind: kindOf(input.to),
            toAddress,
            amount,
            networkFee: amounts.withdrawFee,
            status: auto ? 'approved' : 'pending',
            requestKey: requestKey ?? null,
            holdTransferId: hold.id,
            createdAt: now,
            ...(auto
              ? { decidedBy: 'auto', approvedAt: now, releaseAt: releaseAtOf(ctx.env, now) }
              : { reviewReason: REVIEW_REASONS.overAllowance }),
          },
        });
        await queueRequestNotice(tx, created);
        if (!auto) await queuePendingAlert(tx, created, REVIEW_REASONS.overAllowance, now);
        return created;
      }, REQUEST_TRANSACTION)
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
