/**
 * Period keywords of the partner screens resolved in UTC (docs/bonuses.md#measures): partner
 * figures per calendar month (default current_month), rewards per day, month or everything
 * (default today). `from` is inclusive, `until` exclusive; `range` is what the response echoes.
 */
export type ResolvedPeriod = {
  from: Date | null;
  until: Date;
  range: { from: string | null; to: string };
};

export type MonthPeriod = ResolvedPeriod & { from: Date; month: string };

const DAY_MS = 86_400_000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const monthOf = (date: Date) => date.toISOString().slice(0, 7);
const startOfDay = (date: Date) =>
  new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
const startOfMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 1));

const span = (from: Date, until: Date): ResolvedPeriod => ({
  from,
  until,
  range: { from: isoDay(from), to: isoDay(new Date(until.getTime() - DAY_MS)) },
});

/** `YYYY-MM` → that calendar month. */
const monthSpan = (month: string): MonthPeriod => {
  const from = new Date(`${month}-01T00:00:00.000Z`);
  const until = startOfMonth(from.getUTCFullYear(), from.getUTCMonth() + 1);
  return { ...span(from, until), from, month };
};

/** `current_month` | `last_month` | `YYYY-MM`. */
export const resolvePartnerPeriod = (period: string, now: Date): MonthPeriod => {
  if (period === 'current_month') return monthSpan(monthOf(now));
  if (period === 'last_month')
    return monthSpan(monthOf(startOfMonth(now.getUTCFullYear(), now.getUTCMonth() - 1)));
  return monthSpan(period);
};

/** `today` | `yesterday` | `current_month` | `last_month` | `all` | `YYYY-MM-DD` | `YYYY-MM`. */
export const resolveRewardPeriod = (period: string, now: Date): ResolvedPeriod => {
  const today = startOfDay(now);
  const tomorrow = new Date(today.getTime() + DAY_MS);
  if (period === 'today') return span(today, tomorrow);
  if (period === 'yesterday') return span(new Date(today.getTime() - DAY_MS), today);
  if (period === 'all') return { from: null, until: tomorrow, range: { from: null, to: isoDay(today) } };
  if (period === 'current_month' || period === 'last_month' || /^\d{4}-\d{2}$/.test(period)) {
    return resolvePartnerPeriod(period, now);
  }
  const day = new Date(`${period}T00:00:00.000Z`);
  return span(day, new Date(day.getTime() + DAY_MS));
};
