import { describe, expect, it } from 'vitest';
import { RateLimits } from '../src/exchange/rate-limits';

/** Binance's ban ladder and the ORDERS pools on a clock the test moves (docs/venues/binance.md#bans). */
const MINUTE = 60_000;

const clock = (start: number) => {
  const t = { now: start };
  return { t, now: () => t.now };
};

const ping = { method: 'GET', path: '/api/v3/ping', params: new URLSearchParams() };
const refusal = (v: ReturnType<RateLimits['admit']>) => ('refusal' in v ? v.refusal : undefined);

describe('RateLimits', () => {
  it('bans for 2 minutes, then twice as long for each ban of the same day, at most 3 days', () => {
    const { t, now } = clock(Date.UTC(2026, 0, 1, 0, 0, 0));
    const limits = new RateLimits({ REQUEST_WEIGHT: 2 }, now);
    const banLengths: number[] = [];
    for (let round = 0; round < 14; round++) {
      // A fresh minute: two pings fit, the third is 429; one more within a second may have been in
      // flight (429 again), a later one inside Retry-After is a ban.
      t.now = Math.ceil((t.now + 1) / MINUTE) * MINUTE + 1000;
      expect(refusal(limits.admit('10.0.0.1', ping))).toBeUndefined();
      expect(refusal(limits.admit('10.0.0.1', ping))).toBeUndefined();
      const throttled = refusal(limits.admit('10.0.0.1', ping))!;
      expect(throttled.status).toBe(429);
      expect(throttled.retryAfterS).toBe(59);
      t.now += 500;
      expect(refusal(limits.admit('10.0.0.1', ping))?.status).toBe(429);
      t.now += 1000;
      const banned = refusal(limits.admit('10.0.0.1', ping))!;
      expect(banned.status).toBe(418);
      banLengths.push(banned.retryAfterS);
      // Every request during the ban: 418 with the seconds left.
      t.now += 30_000;
      expect(refusal(limits.admit('10.0.0.1', ping))).toMatchObject({
        status: 418,
        retryAfterS: banned.retryAfterS - 30,
      });
      t.now += banned.retryAfterS * 1000 - 30_000;
      // Within the day only: later bans would start at 2 minutes again.
      if (t.now - Date.UTC(2026, 0, 1) > 20 * 3_600_000) break;
    }
    expect(banLengths.slice(0, 5)).toEqual([120, 240, 480, 960, 1920]);
    expect(Math.max(...banLengths)).toBeLessThanOrEqual(3 * 86_400);
    // Another IP was never concerned.
    expect(refusal(limits.admit('10.0.0.2', ping))).toBeUndefined();
  });

  it('caps a ban at 3 days and starts again from 2 minutes after a day without bans', () => {
    const { t, now } = clock(Date.UTC(2026, 0, 1));
    const limits = new RateLimits({}, now);
    for (let i = 0; i < 20; i++) limits.forceOverLimit({ status: 418, retryAfterS: 1, ip: 'x' });
    limits.forceOverLimit({ status: 429, retryAfterS: 10, ip: 'x' });
    t.now += 2000;
    expect(refusal(limits.admit('x', ping))).toMatchObject({ status: 429, retryAfterS: 8 });
    t.now += 1500;
    expect(refusal(limits.admit('x', ping))).toMatchObject({ status: 418, retryAfterS: 3 * 86_400 });
    t.now += 3 * 86_400_000 + 1000;
    limits.forceOverLimit({ status: 429, retryAfterS: 10, ip: 'x' });
    expect(refusal(limits.admit('x', ping))?.status).toBe(429);
    t.now += 1500;
    expect(refusal(limits.admit('x', ping))).toMatchObject({ status: 418, retryAfterS: 120 });
  });

  it('refuses the 11th order of 10 seconds with -1015 until the window ends; the day pool counts on', () => {
    const { t, now } = clock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const limits = new RateLimits({ ORDERS_10S: 10 }, now);
    for (let i = 0; i < 10; i++) {
      expect(limits.checkOrders('ip', 7)).toBeUndefined();
      limits.countOrder(7);
    }
    t.now += 4000;
    expect(limits.checkOrders('ip', 7)).toEqual({
      status: 429,
      retryAfterS: 6,
      body: { code: -1015, msg: 'Too many new orders; current limit is 10 orders per 10 SECOND.' },
    });
    expect(limits.usageHeaders('ip', 7)).toMatchObject({
      'x-mbx-order-count-10s': '10',
      'x-mbx-order-count-1d': '10',
    });
    t.now += 6000;
    expect(limits.checkOrders('ip', 7)).toBeUndefined();
    expect(limits.usageHeaders('ip', 7)).toMatchObject({
      'x-mbx-order-count-10s': '0',
      'x-mbx-order-count-1d': '10',
    });
  });
});
