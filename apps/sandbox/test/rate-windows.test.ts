import type { RatePool } from '@gridbot/venues';
import { describe, expect, it } from 'vitest';
import { EVERY, RateWindows } from '../src/exchange/rate-windows';

/** The mechanics under the three dialects' rate limits, on a clock the test moves. */
const pool = (id: string, limit: number, windowMs: number): RatePool => ({
  id,
  venueName: id,
  scope: 'ip',
  limit,
  windowMs,
  interval: { unit: 'SECOND', num: windowMs / 1000 },
  doc: '',
});
const FIVE = pool('FIVE_S', 3, 5000);
const MINUTE = pool('MINUTE', 100, 60_000);

const windows = (venue?: string) => {
  const t = { now: 60_000 };
  return { t, w: new RateWindows([FIVE, MINUTE], () => t.now, venue) };
};

describe('RateWindows', () => {
  it('counts per pool and key in fixed windows that start from zero', () => {
    const { t, w } = windows();
    expect(w.charge(FIVE, 'a', 2, t.now)).toBe(2);
    expect(w.fits(FIVE, 'a', 1, t.now)).toBe(true);
    expect(w.fits(FIVE, 'a', 2, t.now)).toBe(false);
    expect(w.used(FIVE, 'b', t.now)).toBe(0);
    expect(w.used(MINUTE, 'a', t.now)).toBe(0);
    t.now += 4999;
    expect(w.used(FIVE, 'a', t.now)).toBe(2);
    expect(w.refillAt(FIVE, t.now)).toBe(65_000);
    t.now += 1;
    expect(w.used(FIVE, 'a', t.now)).toBe(0);
    expect(w.refillAt(FIVE, t.now)).toBe(70_000);
  });

  it('lowers limits by pool id, refuses unknown pools and bad limits, and resets to the table', () => {
    const { t, w } = windows('Bybit');
    expect(w.setLimits({ FIVE_S: 1 })).toEqual({ FIVE_S: 1, MINUTE: 100 });
    expect(w.fits(FIVE, 'a', 2, t.now)).toBe(false);
    expect(() => w.setLimits({ NOPE: 1 })).toThrow('unknown Bybit pool NOPE');
    expect(() => windows().w.setLimits({ NOPE: 1 })).toThrow(/^unknown pool NOPE$/);
    expect(() => w.setLimits({ MINUTE: 0.5 })).toThrow('MINUTE: the limit must be a positive integer');
    w.reset();
    expect(w.currentLimits()).toEqual({ FIVE_S: 3, MINUTE: 100 });
  });

  it('closes a subject until a time, every subject of a kind with EVERY, and opens them again', () => {
    const { t, w } = windows();
    w.close('ban', '10.0.0.1', t.now + 1000);
    expect(w.closedUntil('ban', '10.0.0.1')).toBe(61_000);
    expect(w.closedUntil('ban', '10.0.0.10')).toBe(0);
    expect(w.closedUntil('retry', '10.0.0.1')).toBe(0);
    w.close('ban', EVERY, t.now + 5000);
    expect(w.closedUntil('ban', '10.0.0.2')).toBe(65_000);
    w.close('orders', '10.0.0.1|7', 70_000);
    w.close('orders', '10.0.0.1|8', 70_000);
    w.close('orders', '10.0.0.10|7', 70_000);
    w.openAll('orders', '10.0.0.1|');
    expect(w.closedUntil('orders', '10.0.0.1|7')).toBe(0);
    expect(w.closedUntil('orders', '10.0.0.10|7')).toBe(70_000);
    w.open('ban', EVERY);
    expect(w.closedUntil('ban', '10.0.0.2')).toBe(0);
    w.reset();
    expect(w.closedUntil('ban', '10.0.0.1')).toBe(0);
  });

  it('counts a rolling pool over the last window at every moment: a burst either side of a second is one', () => {
    const ROLLING = { ...pool('UID_1S', 5, 1000), rolling: true as const };
    const t = { now: 60_900 };
    const w = new RateWindows([ROLLING], () => t.now);
    for (let i = 0; i < 5; i++) w.charge(ROLLING, 'uid:1', 1, t.now);
    // 200 ms later, past the clock's second: a fixed window would start from zero here.
    t.now = 61_100;
    expect(w.used(ROLLING, 'uid:1', t.now)).toBe(5);
    expect(w.fits(ROLLING, 'uid:1', 1, t.now)).toBe(false);
    expect(w.refillAt(ROLLING, t.now, 'uid:1')).toBe(61_900);
    // Once the burst is a second old, it is gone.
    t.now = 61_900;
    expect(w.used(ROLLING, 'uid:1', t.now)).toBe(0);
    expect(w.charge(ROLLING, 'uid:1', 2, t.now)).toBe(2);
    w.reset();
    expect(w.used(ROLLING, 'uid:1', t.now)).toBe(0);
  });
});
