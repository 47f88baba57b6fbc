import { ALERT_SHARE, type BudgetStore, windowEnd, windowIndex } from './venue-budget';

/**
 * The budget of one process (the embedded mode: no Redis, one process per IP). Same rules as the
 * Redis store: fixed windows, all-or-nothing reservations, the venue's count raises ours.
 */
export const createMemoryBudgetStore = (): BudgetStore => {
  // key:window → units used; entries of past windows are dropped as new ones are written.
  const used = new Map<string, { window: number; units: number }>();
  const closed = new Map<string, number>();
  const usedIn = (key: string, windowMs: number, now: number) => {
    const entry = used.get(key);
    return entry && entry.window === windowIndex(windowMs, now) ? entry.units : 0;
  };
  return {
    reserve: async ({ charges, closedKeys, share, now }) => {
      for (const key of closedKeys) {
        const until = closed.get(key) ?? 0;
        if (until > now) return { ok: false, reason: 'closed', resumeAt: until, key };
      }
      for (const c of charges) {
        const before = usedIn(c.key, c.windowMs, now);
        // An empty window takes any single request, however heavy (it could never go otherwise).
        if (before > 0 && before + c.units > c.limit * share) {
          return { ok: false, reason: 'full', resumeAt: windowEnd(c.windowMs, now), key: c.key };
        }
      }
      const after: number[] = [];
      const crossed: boolean[] = [];
      for (const c of charges) {
        const before = usedIn(c.key, c.windowMs, now);
        const units = before + c.units;
        used.set(c.key, { window: windowIndex(c.windowMs, now), units });
        after.push(units);
        crossed.push(before < c.limit * ALERT_SHARE && units >= c.limit * ALERT_SHARE);
      }
      return { ok: true, used: after, crossed };
    },
    observe: async ({ key, used: reported, limit, windowMs, now }) => {
      const before = usedIn(key, windowMs, now);
      if (reported <= before) return { crossed: false };
      used.set(key, { window: windowIndex(windowMs, now), units: reported });
      return { crossed: before < limit * ALERT_SHARE && reported >= limit * ALERT_SHARE };
    },
    close: async ({ key, until, now }) => {
      const current = closed.get(key) ?? 0;
      if (until > current) closed.set(key, until);
      return { started: current <= now, until: Math.max(current, until) };
    },
  };
};
