import Decimal from 'decimal.js';
import type { DataContext } from '../context/service-context';

type Row = { user_id: number; coin: string; pnl: string; trades: number };

/** The UTC day before `now`, as YYYY-MM-DD. */
export const previousUtcDay = (now: Date): string =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1))
    .toISOString()
    .slice(0, 10);

/**
 * The daily PnL summary (opt-in, docs/notifications.md#kinds): one `daily_pnl` notification per
 * user who switched the daily report on and closed trades on `date` (UTC), from daily_pnl.
 * Idempotent (one dedupe key per user and day), so every bot process may run it on a timer.
 */
export const queueDailyPnlSummaries = async (
  ctx: DataContext,
  input: { date: string },
): Promise<{ queued: number }> => {
  const rows = await ctx.prisma.$queryRaw<Row[]>`
    SELECT d.user_id, cb.coin, SUM(d.realized_pnl)::text AS pnl, SUM(d.closed_trades)::int AS trades
      FROM daily_pnl d
      JOIN coin_bots cb ON cb.id = d.coin_bot_id
      JOIN notification_settings s ON s.user_id = d.user_id AND s.daily_report
      LEFT JOIN user_config c ON c.user_id = d.user_id AND c.name = 'notifications'
     WHERE d.date = ${input.date}::date AND COALESCE(c.value, 'on') <> 'off' AND d.closed_trades > 0
     GROUP BY d.user_id, cb.coin
     ORDER BY d.user_id, cb.coin`;
  const byUser = new Map<number, Row[]>();
  for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
  const data = [...byUser].map(([userId, coins]) => ({
    userId,
    kind: 'daily_pnl',
    dedupeKey: `daily_pnl:${userId}:${input.date}`,
    data: {
      date: input.date,
      pnl: coins.reduce((sum, c) => sum.plus(c.pnl), new Decimal(0)).toFixed(2),
      closedTrades: coins.reduce((sum, c) => sum + c.trades, 0),
      coins: coins.map((c) => ({ coin: c.coin, pnl: new Decimal(c.pnl).toFixed(2) })),
    },
  }));
  if (data.length === 0) return { queued: 0 };
  const { count } = await ctx.prisma.notification.createMany({ data, skipDuplicates: true });
  return { queued: count };
};
