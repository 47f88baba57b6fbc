import type { Prisma } from '@gridbot/db';
import { matchingShares } from '@gridbot/domain';
import { isLedgerError, openAccounts, SYSTEM_ACCOUNTS, transfer, userAccountCode } from '@gridbot/ledger';
import type { ServiceContext } from '../context/service-context';
import { dayStart, utcDay } from './bonus-days';
import { bonusUplines } from './uplines';

type Tx = Prisma.TransactionClient;

/**
 * Accrues the matching bonus of one trading fee (docs/bonuses.md#matching-bonus) inside the
 * transaction that charges it: generation g's upline earns 10 / 5 / 3 % of the fee when their
 * licence is active now and pays at least g generations. One row per fee and generation (unique),
 * so a replayed fee never accrues twice. Nothing moves yet: the daily payout pays the rows.
 */
export const accrueMatchingBonus = async (
  tx: Tx,
  input: { feeTransferId: bigint; partnerId: number; fee: bigint; at: Date },
): Promise<void> => {
  const shares = matchingShares(input.fee, await bonusUplines(tx, input.partnerId, input.at));
  if (shares.length === 0) return;
  await tx.matchingAccrual.createMany({
    data: shares.map((share) => ({
      feeTransferId: input.feeTransferId,
      partnerId: input.partnerId,
      uplineId: share.userId,
      generation: share.generation,
      fee: input.fee,
      ratePct: share.ratePct,
      amount: share.amount,
      day: dayStart(utcDay(input.at)),
    })),
    skipDuplicates: true,
  });
};

/** The key of an upline's matching payout of a day: one ledger transfer per upline per day. */
export const matchingPayoutKey = (uplineId: number, day: string) => `matching_bonus:${uplineId}:${day}`;

type Group = { upline_id: number; day: Date };

/**
 * Pays one upline's unpaid accruals of one day: locks them (a concurrent payout waits, then finds
 * them paid), books their sum from system:fees to the upline's main as one `matching_bonus`
 * transfer keyed by upline and day, and marks them paid. Accruals of a day that arrive after its
 * payout (a fee booked late) are paid by a transfer of their own, keyed by their first row.
 */
const payGroup = async (tx: Tx, uplineId: number, day: string): Promise<bigint> => {
  const rows = await tx.$queryRawUnsafe<{ id: bigint; amount: bigint }[]>(
    `SELECT id, amount FROM matching_accruals
      WHERE upline_id = $1 AND day = $2::date AND payout_transfer_id IS NULL
      ORDER BY id FOR UPDATE`,
    uplineId,
    day,
  );
  const first = rows[0];
  if (!first) return 0n;
  const total = rows.reduce((sum, row) => sum + BigInt(row.amount), 0n);
  const dayKey = matchingPayoutKey(uplineId, day);
  const paidBefore = await tx.ledgerTransfer.findUnique({
    where: { idempotencyKey: dayKey },
    select: { id: true },
  });
  const account = userAccountCode(uplineId, 'main');
  await openAccounts(tx, [account]);
  const booked = await transfer(tx, {
    idempotencyKey: paidBefore ? `${dayKey}:${first.id}` : dayKey,
    type: 'matching_bonus',
    memo: { kind: 'matching', day, accruals: rows.length },
    legs: [
      { account: SYSTEM_ACCOUNTS.fees, amount: -total },
      { account, amount: total },
    ],
  });
  await tx.matchingAccrual.updateMany({
    where: { id: { in: rows.map((row) => BigInt(row.id)) } },
    data: { payoutTransferId: booked.id },
  });
  await tx.notification.createMany({
    data: [
      {
        userId: uplineId,
        kind: 'bonus_credited',
        data: { bonus: 'matching_bonus', amount: total.toString() },
        dedupeKey: `bonus_credited:${booked.id}:${uplineId}`,
      },
    ],
    skipDuplicates: true,
  });
  return total;
};

/**
 * The daily matching payout (docs/bonuses.md#matching-bonus): every upline's unpaid accruals of
 * every closed UTC day (before today) are paid, one transfer per upline and day, each in its own
 * transaction. Safe to run twice or concurrently: a group is paid once (row locks and the
 * `payout_transfer_id` mark), and a failure of one group (logged) does not stop the others.
 */
export const payMatchingBonuses = async (
  ctx: ServiceContext,
): Promise<{ paid: number; amount: bigint; failed: number }> => {
  const today = utcDay(ctx.clock.now());
  const groups = await ctx.prisma.$queryRawUnsafe<Group[]>(
    `SELECT DISTINCT upline_id, day FROM matching_accruals
      WHERE payout_transfer_id IS NULL AND day < $1::date ORDER BY day, upline_id`,
    today,
  );
  let paid = 0;
  let amount = 0n;
  let failed = 0;
  for (const group of groups) {
    const day = utcDay(group.day);
    try {
      const total = await ctx.prisma.$transaction((tx) => payGroup(tx, group.upline_id, day));
      if (total > 0n) {
        paid += 1;
        amount += total;
      }
    } catch (error) {
      failed += 1;
      const level = isLedgerError(error, 'INSUFFICIENT_FUNDS') ? 'system:fees cannot cover it' : 'failed';
      ctx.log.error({ uplineId: group.upline_id, day, err: error }, `matching payout ${level}`);
    }
  }
  if (paid > 0 || failed > 0)
    ctx.log.info({ paid, failed, amount: amount.toString() }, 'matching bonuses paid');
  return { paid, amount, failed };
};
