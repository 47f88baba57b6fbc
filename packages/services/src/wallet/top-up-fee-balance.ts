import type { Transaction } from '@gridbot/contracts';
import { reconcileCoinBotJob, reconcileJobId } from '@gridbot/jobs';
import { toMicro, userAccountCode } from '@gridbot/ledger';
import type { ServiceContext } from '../context/service-context';
import { transferOpeningAccounts } from './send-transfer';
import { moveKey } from './wallet-settings';
import { bookedLine } from './wallet-transactions';
import { balancesView, readBalances } from './wallet-views';

/**
 * A top-up that lifts the fee balance above zero ends the `fee_balance_empty` dry reason
 * (docs/fees.md#fee-balance): each of the user's running coin bots is reconciled again, so the
 * engine re-plans its buys now rather than at the next sweep.
 */
const reconcileAfterTopUp = async (ctx: ServiceContext, userId: number): Promise<void> => {
  const bots = await ctx.prisma.coinBot.findMany({
    where: { userId, running: true, deletedAt: null },
    select: { id: true },
  });
  await ctx.queue.enqueueMany(
    reconcileCoinBotJob,
    bots.map((bot) => ({
      payload: { coinBotId: bot.id, reason: 'fee_topped_up' },
      options: { jobId: reconcileJobId(bot.id) },
    })),
  );
};

/**
 * Moves `summ` USDT from the main to the fee balance (`deposit_balance`, docs/fees.md#top-up): one
 * ledger transfer, refused with INSUFFICIENT_FUNDS when main is short. Idempotent under a retried
 * request with the same Idempotency-Key.
 */
export const moveToFeeBalance = async (
  ctx: ServiceContext,
  input: { userId: number; summ: string; idempotencyKey?: string | undefined },
): Promise<{ transaction: Transaction; balances: ReturnType<typeof balancesView> }> => {
  const amount = toMicro(input.summ);
  const feeAccount = userAccountCode(input.userId, 'fee');
  const booked = await transferOpeningAccounts(
    ctx,
    { payer: input.userId, payees: [input.userId] },
    {
      idempotencyKey: moveKey('top-up', input.userId, input.idempotencyKey),
      type: 'deposit_balance',
      legs: [
        { account: userAccountCode(input.userId, 'main'), amount: -amount },
        { account: feeAccount, amount },
      ],
    },
  );
  const feeAfter = booked.entries.find((entry) => entry.account === feeAccount)?.balanceAfter ?? 0n;
  if (!booked.replayed && feeAfter > 0n && feeAfter - amount <= 0n) {
    // The money has moved: a queue failure must not turn the answer into an error (the sweep
    // reconciles the coin bots later anyway).
    await reconcileAfterTopUp(ctx, input.userId).catch((error: unknown) =>
      ctx.log.warn({ userId: input.userId, err: error }, 'reconcile after fee top-up not queued'),
    );
  }
  return {
    transaction: bookedLine({
      transferId: booked.id,
      type: 'deposit_balance',
      balance: 'fee',
      amount,
      createdAt: booked.createdAt,
    }),
    balances: balancesView(await readBalances(ctx.prisma, input.userId)),
  };
};
