import { expect } from 'vitest';
import { type BudgetStore, graceOf } from '../../src/index';

/**
 * The budget's windows against the venue's fixed ones (venue-budget.ts, docs/grid.md#request-budget):
 * whatever the times of the requests, no venue window holds more than the limit — with the venue's
 * clock in step with ours or behind it by up to the grace. OKX's 2-s windows, 10 requests each
 * (FILLS_HISTORY, docs/venues/okx.md#rate-limits), are the case a 1-s offset of our windows broke:
 * 5 sent in the second half of a window and 10 in the first half of the next one all counted in one
 * venue window.
 */
export const checkVenueWindows = async (store: BudgetStore, windowMs: number, limit: number) => {
  const start = 1_000_000 * windowMs;
  // A deterministic stream, dense enough to fill every window, bursts at random instants.
  let seed = 7;
  const random = () => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  const times: number[] = [];
  for (let i = 0; i < 40 * limit; i++) times.push(start + Math.floor(random() * 20 * windowMs));
  times.sort((a, b) => a - b);
  const accepted: number[] = [];
  for (const now of times) {
    const answer = await store.reserve({
      charges: [{ pool: 'P', key: 'okx:sandbox:P:acct:a', units: 1, limit, windowMs }],
      closedKeys: [],
      share: 1,
      now,
    });
    if (answer.ok) accepted.push(now);
    else expect(answer.resumeAt).toBeGreaterThan(now);
  }
  for (const behind of [0, Math.floor(graceOf(windowMs) / 2), graceOf(windowMs)]) {
    const counts = new Map<number, number>();
    for (const t of accepted) {
      const k = Math.floor((t - behind) / windowMs);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    expect(Math.max(...counts.values()), `venue ${behind} ms behind`).toBeLessThanOrEqual(limit);
  }
  // The grace costs little: most of each window's budget is spent.
  expect(accepted.length).toBeGreaterThan(20 * limit * 0.8);
};

/**
 * The budget against a venue that counts in a rolling window (RatePool.rolling, Bybit's): whatever
 * the times of the requests, no span of `windowMs` — starting at any instant — holds more than the
 * limit; fixed windows would let a burst at the end of one and another at the start of the next
 * (twice the limit within one rolling window) through.
 */
export const checkRollingWindows = async (store: BudgetStore, windowMs: number, limit: number) => {
  const start = 1_000_000 * windowMs;
  let seed = 11;
  const random = () => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  const times: number[] = [];
  // Bursts at random instants, and one on each side of every window boundary.
  for (let i = 0; i < 40 * limit; i++) times.push(start + Math.floor(random() * 20 * windowMs));
  for (let w = 1; w < 20; w++)
    for (let i = 0; i < limit; i++) times.push(start + w * windowMs - 1, start + w * windowMs);
  times.sort((a, b) => a - b);
  const accepted: number[] = [];
  for (const now of times) {
    const answer = await store.reserve({
      charges: [{ pool: 'P', key: 'bybit:sandbox:P:acct:a', units: 1, limit, windowMs, rolling: true }],
      closedKeys: [],
      share: 1,
      now,
    });
    if (answer.ok) accepted.push(now);
    else expect(answer.resumeAt).toBeGreaterThan(now);
  }
  // Every rolling window that ends at an accepted request (the fullest ones end so).
  let from = 0;
  let most = 0;
  for (let to = 0; to < accepted.length; to++) {
    while (accepted[from]! <= accepted[to]! - windowMs) from++;
    most = Math.max(most, to - from + 1);
  }
  expect(most).toBeLessThanOrEqual(limit);
  // The staggered windows cost a slot's worth: most of the budget is still spent.
  expect(accepted.length).toBeGreaterThan(20 * limit * 0.7);
};
