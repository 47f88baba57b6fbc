import type { ServiceContext } from '../context/service-context';

const DAY_MS = 86_400_000;
/** Reminders before the end (days left), and how long after it an expiry is still announced. */
export const LICENSE_REMINDER_DAYS = [7, 1] as const;
const EXPIRED_NOTICE_WITHIN_DAYS = 7;

type Row = { id: number; license_level: string; active_until: Date };

/**
 * Queues the licence notices of the day (docs/licences.md#expiry) in the notification outbox the
 * bot delivers: `license_expiring` when 7 and when 1 day(s) are left, `license_expired` once it has
 * ended (within the last week, so a first run does not announce old expiries). Each is keyed by
 * user, licence period and kind, so the job may run any number of times; a renewal starts a new
 * period and its own notices.
 */
export const queueLicenseNotices = async (ctx: ServiceContext): Promise<{ queued: number }> => {
  const now = ctx.clock.now();
  const rows = await ctx.prisma.$queryRawUnsafe<Row[]>(
    `SELECT id, license_level, active_until FROM (
       SELECT u.id, u.license_level,
              coalesce(u.license_active_until, u.created_at + l.valid_days * interval '1 day') AS active_until
         FROM users u JOIN license_levels l ON l.code = u.license_level) t
      WHERE active_until > $1 AND active_until <= $2`,
    new Date(now.getTime() - EXPIRED_NOTICE_WITHIN_DAYS * DAY_MS),
    new Date(now.getTime() + Math.max(...LICENSE_REMINDER_DAYS) * DAY_MS),
  );
  const data = rows.flatMap((row) => {
    const until = row.active_until.getTime();
    const period = `${row.id}:${row.active_until.toISOString()}`;
    if (until <= now.getTime()) {
      return [
        {
          userId: row.id,
          kind: 'license_expired',
          data: { level: row.license_level },
          dedupeKey: `license_expired:${period}`,
        },
      ];
    }
    const daysLeft = Math.ceil((until - now.getTime()) / DAY_MS);
    // The nearest reminder that is due: 1 day left sends the 1-day one (not the 7-day one too).
    const due = [...LICENSE_REMINDER_DAYS].sort((a, b) => a - b).find((days) => daysLeft <= days);
    return due === undefined
      ? []
      : [
          {
            userId: row.id,
            kind: 'license_expiring',
            data: { level: row.license_level, daysLeft },
            dedupeKey: `license_expiring:${due}:${period}`,
          },
        ];
  });
  if (data.length === 0) return { queued: 0 };
  const { count } = await ctx.prisma.notification.createMany({ data, skipDuplicates: true });
  return { queued: count };
};
