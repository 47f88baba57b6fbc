import type { DataContext } from '../context/service-context';
import { queuePendingAlert, REVIEW_REASONS, requestNoticeKey } from './withdrawal-notices';

/** Notice states that will never become `sent` (docs/notifications.md#delivery). */
const UNDELIVERABLE = ['blocked', 'failed', 'expired', 'muted'] as const;

/**
 * The owner must be told before their money leaves (docs/wallet.md#release). An automatically
 * approved withdrawal whose `withdrawal_requested` notice can never be delivered (the user blocked
 * the bot, Telegram refused it for good) is not signed: it goes back to `pending` for an operator,
 * who is alerted, in one transaction per withdrawal. One an operator approved knowing this is
 * signed as decided. Returns how many went to review.
 */
export const reviewUndeliveredNotices = async (ctx: DataContext): Promise<number> => {
  const rows = await ctx.prisma.$queryRaw<Array<{ id: number }>>`
    SELECT w.id FROM withdrawals w
      JOIN notifications n ON n.dedupe_key = 'withdrawal_requested:' || w.id
     WHERE w.status = 'approved' AND w.signed_tx IS NULL AND w.decided_by = 'auto'
       AND n.status IN (${UNDELIVERABLE[0]}, ${UNDELIVERABLE[1]}, ${UNDELIVERABLE[2]}, ${UNDELIVERABLE[3]})
     ORDER BY w.id LIMIT 50`;
  let moved = 0;
  for (const { id } of rows) {
    const done = await ctx.prisma.$transaction(async (tx) => {
      const moved = await tx.$queryRaw<Array<{ id: number }>>`
        UPDATE withdrawals
           SET status = 'pending', decided_by = NULL, approved_at = NULL, release_at = NULL,
               review_reason = ${REVIEW_REASONS.noticeUndelivered}, updated_at = ${ctx.clock.now()}
         WHERE id = ${id} AND status = 'approved' AND signed_tx IS NULL AND decided_by = 'auto'
     RETURNING id`;
      if (moved.length === 0) return false;
      const w = await tx.withdrawal.findUniqueOrThrow({ where: { id } });
      await queuePendingAlert(tx, w, REVIEW_REASONS.noticeUndelivered, ctx.clock.now());
      return true;
    });
    if (done) {
      moved += 1;
      ctx.log.warn(
        { withdrawalId: id, notice: requestNoticeKey(id) },
        "withdrawal sent to review: its owner's notice could not be delivered",
      );
    }
  }
  return moved;
};
