/**
 * The UTC day (`YYYY-MM-DD`) of an ISO date-time: lists are grouped by the days PnL is counted on
 * (docs/pnl.md#days-and-times), so a fill or a fee stands under the day whose PnL row holds it.
 */
export const utcDayOf = (iso: string) => new Date(iso).toISOString().slice(0, 10);

export type DayGroup<T> = { day: string; items: T[] };

/** Consecutive items of one UTC day together, in the list's own order (newest first in ours). */
export const groupByDay = <T>(items: readonly T[], at: (item: T) => string): DayGroup<T>[] =>
  items.reduce<DayGroup<T>[]>((days, item) => {
    const day = utcDayOf(at(item));
    const last = days.at(-1);
    if (last?.day === day) last.items.push(item);
    else days.push({ day, items: [item] });
    return days;
  }, []);
