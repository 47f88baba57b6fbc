import { describe, expect, it } from 'vitest';
import { committedCapital, licenseLimitBreach, licenseStatus, renewalPrice } from '../src';

const FREE = {
  code: 'FREE',
  rank: 0,
  yearlyPrice: '0',
  balanceLimit: '300',
  coins: 3,
  matchingGenerations: 0,
  validDays: 14,
};
const PRO1 = {
  code: 'PRO1',
  rank: 1,
  yearlyPrice: '100',
  balanceLimit: '2000',
  coins: 10,
  matchingGenerations: 1,
  validDays: 365,
};
const at = (iso: string) => new Date(iso);

describe('licence status', () => {
  it('runs a free licence 14 days from registration, then expires', () => {
    const holder = { registeredAt: at('2026-01-01T10:00:00Z'), activeFrom: null, activeUntil: null };
    const fresh = licenseStatus(FREE, holder, at('2026-01-01T10:00:01Z'));
    expect(fresh).toMatchObject({ level: 'FREE', paid: false, expired: false, daysLeft: 14 });
    expect(fresh.activeUntil.toISOString()).toBe('2026-01-15T10:00:00.000Z');
    expect(fresh.renewal).toEqual({
      available: false,
      availableFrom: null,
      price: null,
      discountPct: '20',
      newActiveUntil: null,
    });
    expect(licenseStatus(FREE, holder, at('2026-01-15T09:59:59Z'))).toMatchObject({
      expired: false,
      daysLeft: 1,
    });
    expect(licenseStatus(FREE, holder, at('2026-01-15T10:00:00Z'))).toMatchObject({
      expired: true,
      daysLeft: 0,
    });
  });

  it('opens renewal 30 days before a paid licence ends and closes it at the end, at 20 % off, extending from the end', () => {
    const holder = {
      registeredAt: at('2025-01-01T00:00:00Z'),
      activeFrom: at('2026-01-01T00:00:00Z'),
      activeUntil: at('2027-01-01T00:00:00Z'),
    };
    const before = licenseStatus(PRO1, holder, at('2026-12-01T00:00:00Z'));
    expect(before.renewal.available).toBe(false);
    expect(before.renewal.availableFrom?.toISOString()).toBe('2026-12-02T00:00:00.000Z');
    const inside = licenseStatus(PRO1, holder, at('2026-12-02T00:00:00Z'));
    expect(inside.renewal).toMatchObject({ available: true, price: '80' });
    expect(inside.renewal.newActiveUntil?.toISOString()).toBe('2028-01-01T00:00:00.000Z');
    const last = licenseStatus(PRO1, holder, at('2026-12-31T23:59:59.999Z'));
    expect(last.renewal.available).toBe(true);
    // Expired: the window has closed (the level is bought again at the full price).
    const expired = licenseStatus(PRO1, holder, at('2027-01-01T00:00:00Z'));
    expect(expired).toMatchObject({ expired: true, daysLeft: 0 });
    expect(expired.renewal).toMatchObject({ available: false, newActiveUntil: null, price: '80' });
  });

  it('prices renewal exactly', () => {
    expect(renewalPrice('1200')).toBe('960');
    expect(renewalPrice('0.01')).toBe('0.008');
  });
});

describe('licence limits', () => {
  it('sums committed capital exactly and reports the first breach', () => {
    const coins = [
      { orderSize: '50', maxTrades: 10 },
      { orderSize: '25.1', maxTrades: 10 },
      { orderSize: '0.1', maxTrades: 3 },
    ];
    expect(committedCapital(coins)).toBe('751.3');
    expect(licenseLimitBreach(PRO1, coins)).toBeNull();
    expect(licenseLimitBreach(FREE, coins)).toBe('LICENSE_BALANCE_LIMIT');
    expect(licenseLimitBreach(FREE, [...coins, { orderSize: '1', maxTrades: 1 }])).toBe('COIN_LIMIT');
    expect(licenseLimitBreach(FREE, [{ orderSize: '100', maxTrades: 3 }])).toBeNull();
  });
});
