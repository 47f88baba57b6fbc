/** The local calendar day of an ISO date-time: lists are grouped by the reader's days. */
const localDayOf = (iso: string) => {
  const date = new Date(iso);
  return `${date.getFullYear()}-${date.getMonth() + 1}-${date.getDate()}`;
};

export type DayGroup<T> = { day: string; at: string; items: T[] };

/** Consecutive items of one local day together, in the list's own order (newest first in ours). */
export const groupByDay = <T>(items: readonly T[], at: (item: T) => string): DayGroup<T>[] =>
  items.reduce<DayGroup<T>[]>((days, item) => {
    const when = at(item);
    const day = localDayOf(when);
    const last = days.at(-1);
    if (last?.day === day) last.items.push(item);
    else days.push({ day, at: when, items: [item] });
    return days;
  }, []);
