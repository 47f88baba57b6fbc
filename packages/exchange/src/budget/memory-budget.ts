import {
  ALERT_SHARE,
  type BudgetStore,
  endOfWindow,
  ROLLING_SLOTS,
  windowIndex,
  windowsOf,
} from './venue-budget';

/**
 * The budget of one process (the embedded mode: no Redis, one process per IP). Same rules as the
 * Redis store: fixed windows (a request in a window's grace charged in the one before too,
 * windowsOf) or rolling ones (staggered windows), all-or-nothing reservations, the venue's count
 * raises ours.
 */
export const createMemoryBudgetStore = (): BudgetStore => {
  // key → window → units used; windows before the previous one are dropped as new ones are written.
  const used = new Map<string, Map<number, number>>();
  const closed = new Map<string, number>();
  const usedIn = (key: string, window: number) => used.get(key)?.get(window) ?? 0;
  const write = (key: string, window: number, units: number) => {
    let windows = used.get(key);
    if (!windows) {
      windows = new Map();
      used.set(key, windows);
    }
    windows.set(window, units);
    // Fixed windows need the one before (its grace); rolling ones the staggered windows still open.
    for (const old of windows.keys()) if (old < window - ROLLING_SLOTS) windows.delete(old);
  };
  return {
    reserve: async ({ charges, closedKeys, share, now }) => {
      for (const key of closedKeys) {
        const until = closed.get(key) ?? 0;
        if (until > now) return { ok: false, reason: 'closed', resumeAt: until, key };
      }
      for (const c of charges) {
        for (const window of windowsOf(c.windowMs, now, c.rolling)) {
          const before = usedIn(c.key, window);
          // An empty window takes any single request, however heavy (it could never go otherwise).
          if (before > 0 && before + c.units > c.limit * share) {
            const resumeAt = endOfWindow(c.windowMs, window, c.rolling);
            return { ok: false, reason: 'full', resumeAt, key: c.key };
          }
        }
      }
      const after: number[] = [];
      const crossed: boolean[] = [];
      for (const c of charges) {
        let before = 0;
        let units = 0;
        // The current window (the last) is the one reported.
        for (const window of windowsOf(c.windowMs, now, c.rolling)) {
          before = usedIn(c.key, window);
          units = before + c.units;
          write(c.key, window, units);
        }
        after.push(units);
        crossed.push(before < c.limit * ALERT_SHARE && units >= c.limit * ALERT_SHARE);
      }
      return { ok: true, used: after, crossed };
    },
    observe: async ({ key, used: reported, limit, windowMs, rolling, now }) => {
      const window = windowIndex(windowMs, now, rolling);
      const before = usedIn(key, window);
      if (reported <= before) return { crossed: false };
      write(key, window, reported);
      return { crossed: before < limit * ALERT_SHARE && reported >= limit * ALERT_SHARE };
    },
    close: async ({ key, until, now }) => {
      const current = closed.get(key) ?? 0;
      if (until > current) closed.set(key, until);
      return { started: current <= now, until: Math.max(current, until) };
    },
  };
};
