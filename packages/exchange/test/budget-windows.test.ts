import { describe, expect, it } from 'vitest';
import { createMemoryBudgetStore, graceOf, ROLLING_SLOTS, windowEnd, windowsOf } from '../src/index';
import { checkRollingWindows, checkVenueWindows } from './support/venue-windows';

describe('budget windows', () => {
  it('charges a request in the grace of a window in the one before too', () => {
    expect(graceOf(2000)).toBe(200);
    expect(graceOf(60_000)).toBe(1000);
    expect(windowsOf(2000, 4100)).toEqual([1, 2]);
    expect(windowsOf(2000, 4200)).toEqual([2]);
    expect(windowsOf(60_000, 300_500)).toEqual([4, 5]);
    expect(windowEnd(2000, 4100)).toBe(6200);
  });

  it('never lets a venue window hold more than its limit (memory store)', async () => {
    await checkVenueWindows(createMemoryBudgetStore(), 2000, 10);
    await checkVenueWindows(createMemoryBudgetStore(), 5000, 600);
    await checkVenueWindows(createMemoryBudgetStore(), 1000, 20);
  });

  it("counts a rolling window in staggered windows, each a slot longer than the venue's", () => {
    expect(ROLLING_SLOTS).toBe(4);
    // 1-s rolling window: slots of 250 ms; a request at 1,100 ms is in the windows starting at
    // 250, 500, 750, 1,000 ms and the one at 0 (1,250 ms long: until 1,250).
    expect(windowsOf(1000, 1100, true)).toEqual([0, 1, 2, 3, 4]);
    expect(windowEnd(1000, 1100, true)).toBe(2250);
  });

  it('never lets a rolling window hold more than its limit, at any instant (memory store)', async () => {
    await checkRollingWindows(createMemoryBudgetStore(), 1000, 20);
    await checkRollingWindows(createMemoryBudgetStore(), 5000, 600);
  });
});
