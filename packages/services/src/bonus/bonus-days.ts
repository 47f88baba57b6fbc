const DAY_MS = 86_400_000;

/** The UTC day of an instant, as `YYYY-MM-DD`. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** Midnight UTC of a `YYYY-MM-DD` day (how `@db.Date` columns are written and read). */
export const dayStart = (day: string): Date => new Date(`${day}T00:00:00.000Z`);

/** A day parameter (`today`, `yesterday` or a date) as a concrete UTC day. */
export const resolveDay = (param: string, now: Date): string => {
  if (param === 'today') return utcDay(now);
  if (param === 'yesterday') return utcDay(new Date(now.getTime() - DAY_MS));
  return param;
};

/** The half-open instant range of a UTC day. */
export const dayRange = (day: string): { gte: Date; lt: Date } => {
  const gte = dayStart(day);
  return { gte, lt: new Date(gte.getTime() + DAY_MS) };
};
