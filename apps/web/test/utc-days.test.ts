import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupByDay } from '../src/format/group-by-day';
import { createFormatters } from '../src/format/use-format';

// A reader in Los Angeles (UTC−7 in March): the UTC day and the reader's day part at 17:00 there.
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'America/Los_Angeles';
});
afterAll(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('UTC days in lists (docs/pnl.md#days-and-times)', () => {
  const format = createFormatters('en-US');
  const now = Date.parse('2025-03-15T00:50:00Z'); // 17:50 on the 14th in Los Angeles

  it('names the UTC days, today and yesterday by the UTC calendar', () => {
    expect(format.utcDay('2025-03-15', now)).toBe('Today');
    expect(format.utcDay('2025-03-14', now)).toBe('Yesterday');
    expect(format.utcDay('2025-03-10', now)).toBe('Mon, March 10');
  });

  it('groups an evening in Los Angeles under the next UTC day, its local date shown beside the time', () => {
    const groups = groupByDay(['2025-03-15T00:30:00Z', '2025-03-14T23:30:00Z'], (at) => at);
    expect(groups.map((group) => group.day)).toEqual(['2025-03-15', '2025-03-14']);
    // 17:30 on the 14th locally, under 15 March (UTC): the date says so.
    expect(format.timeUnder('2025-03-15T00:30:00Z', '2025-03-15')).toMatch(/^Mar 14, 0?5:30\sPM$/);
    // 16:30 on the 14th, under 14 March (UTC): the time alone is enough.
    expect(format.timeUnder('2025-03-14T23:30:00Z', '2025-03-14')).toMatch(/^0?4:30\sPM$/);
  });
});
