import { describe, expect, it } from 'vitest';
import { createMemoryBudgetStore, graceOf, windowEnd, windowsOf } from '../src/index';
import { checkVenueWindows } from './support/venue-windows';

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
});
