import { describe, expect, it } from 'vitest';
import {
  type BonusUpline,
  type LicenseLevelRow,
  licenseStatus,
  matchingShares,
  networkExpansionBonus,
  quoteRenewal,
  quoteUpgrade,
  shareOf,
  splitReferralBonus,
  usdtToMicro,
} from '../src';

const U = 1_000_000n;
// A 4-level tree: root R → A → B → C, and C pays. C's line 1 is B, line 2 A, line 3 R; nobody is
// above R. Each upline's licence is given per case.
const up = (userId: number, active: boolean, matchingGenerations = 3): BonusUpline => ({
  userId,
  active,
  matchingGenerations,
});
const B = 2;
const A = 3;
const R = 4;

describe('referral bonus', () => {
  const cases: Array<{
    name: string;
    payment: bigint;
    uplines: Array<BonusUpline | null>;
    paid: Record<number, bigint>;
    unpaid: number[];
    house: bigint;
  }> = [
    {
      name: 'all three lines active: 30 / 8 / 5 %, 57 % to the house',
      payment: 100n * U,
      uplines: [up(B, true), up(A, true), up(R, true)],
      paid: { [B]: 30n * U, [A]: 8n * U, [R]: 5n * U },
      unpaid: [],
      house: 57n * U,
    },
    {
      name: 'an inactive line 2 forfeits its share to the house',
      payment: 300n * U,
      uplines: [up(B, true), up(A, false), up(R, true)],
      paid: { [B]: 90n * U, [R]: 15n * U },
      unpaid: [A],
      house: 195n * U,
    },
    {
      name: 'only a sponsor (two-level tree): lines 2 and 3 absent',
      payment: 600n * U,
      uplines: [up(B, true), null, null],
      paid: { [B]: 180n * U },
      unpaid: [],
      house: 420n * U,
    },
    {
      name: 'no sponsor (the root pays): everything to the house',
      payment: 1200n * U,
      uplines: [],
      paid: {},
      unpaid: [],
      house: 1200n * U,
    },
    {
      name: 'nobody active: everything to the house',
      payment: 80n * U,
      uplines: [up(B, false), up(A, false), up(R, false)],
      paid: {},
      unpaid: [B, A, R],
      house: 80n * U,
    },
    {
      name: 'rounding: each share rounds down, the dust goes to the house',
      // 0.000033 USDT: 30 % = 9.9 → 9, 8 % = 2.64 → 2, 5 % = 1.65 → 1 micro-USDT.
      payment: 33n,
      uplines: [up(B, true), up(A, true), up(R, true)],
      paid: { [B]: 9n, [A]: 2n, [R]: 1n },
      unpaid: [],
      house: 21n,
    },
    {
      name: 'a renewal price with micro-USDT: 79.999999',
      payment: 79_999_999n,
      uplines: [up(B, true), up(A, true), up(R, true)],
      paid: { [B]: 23_999_999n, [A]: 6_399_999n, [R]: 3_999_999n },
      unpaid: [],
      house: 45_600_002n,
    },
  ];
  it.each(cases)('$name', ({ payment, uplines, paid, unpaid, house }) => {
    const split = splitReferralBonus(payment, uplines);
    const paidShares = Object.fromEntries(
      split.shares.filter((s) => s.paid).map((s) => [s.userId, s.amount]),
    );
    expect(paidShares).toEqual(paid);
    expect(split.shares.filter((s) => !s.paid).map((s) => s.userId)).toEqual(unpaid);
    expect(split.house).toBe(house);
    // Nothing is created or lost: the shares paid and the house make the payment.
    expect(split.paidOut + split.house).toBe(payment);
    expect(split.shares.map((s) => s.line)).toEqual(
      split.shares.map((_, i) => i + 1).slice(0, split.shares.length),
    );
  });

  it('never pays a fourth line', () => {
    const split = splitReferralBonus(100n * U, [up(B, true), up(A, true), up(R, true), up(99, true)]);
    expect(split.shares.map((s) => s.userId)).toEqual([B, A, R]);
  });
});

describe('matching bonus', () => {
  const cases: Array<{
    name: string;
    fee: bigint;
    uplines: Array<BonusUpline | null>;
    shares: [number, bigint][];
  }> = [
    {
      name: 'PRO3 uplines on all generations: 10 / 5 / 3 %',
      fee: 10n * U,
      uplines: [up(B, true, 3), up(A, true, 3), up(R, true, 3)],
      shares: [
        [B, 1n * U],
        [A, 500_000n],
        [R, 300_000n],
      ],
    },
    {
      name: 'mixed licences: PRO1 on generation 2 and FREE on 1 earn nothing',
      fee: 10n * U,
      uplines: [up(B, true, 0), up(A, true, 1), up(R, true, 2)],
      shares: [],
    },
    {
      name: 'PRO2 earns generations 1 and 2, not 3',
      fee: 10n * U,
      uplines: [up(B, true, 2), up(A, true, 2), up(R, true, 2)],
      shares: [
        [B, 1n * U],
        [A, 500_000n],
      ],
    },
    {
      name: 'an expired licence earns nothing',
      fee: 10n * U,
      uplines: [up(B, false, 3), up(A, true, 3), null],
      shares: [[A, 500_000n]],
    },
    {
      name: 'rounding down; shares of zero are left out',
      fee: 19n,
      uplines: [up(B, true), up(A, true), up(R, true)],
      shares: [[B, 1n]],
    },
  ];
  it.each(cases)('$name', ({ fee, uplines, shares }) => {
    const result = matchingShares(fee, uplines);
    expect(result.map((s) => [s.userId, s.amount])).toEqual(shares);
    expect(result.reduce((sum, s) => sum + s.amount, 0n) <= (fee * 18n) / 100n).toBe(true);
  });
});

describe('network expansion bonus', () => {
  it.each([
    { partners: 0, pool: 1000n * U, qualified: false, bonus: 0n },
    { partners: 1, pool: 1000n * U, qualified: false, bonus: 0n },
    { partners: 2, pool: 1000n * U, qualified: true, bonus: 50n * U },
    { partners: 5, pool: 99n, qualified: true, bonus: 4n },
  ])('$partners partners, pool $pool → $bonus', ({ partners, pool, qualified, bonus }) => {
    expect(networkExpansionBonus(partners, pool)).toEqual({ qualified, bonus });
  });

  it('takes percentages with up to two decimals', () => {
    expect(shareOf(1000n, '2.5')).toBe(25n);
    expect(shareOf(1000n, '0.05')).toBe(0n);
    expect(() => shareOf(1000n, '1.234')).toThrow(RangeError);
  });
});

const level = (code: string, rank: number, price: string): LicenseLevelRow => ({
  code,
  rank,
  yearlyPrice: price,
  balanceLimit: '1000',
  coins: 10,
  matchingGenerations: Math.min(rank, 3),
  validDays: rank === 0 ? 14 : 365,
});
const FREE = level('FREE', 0, '0');
const PRO1 = level('PRO1', 1, '100');
const PRO2 = level('PRO2', 2, '300');
const at = (iso: string) => new Date(iso);
const holder = (from: string | null, until: string | null) => ({
  registeredAt: at('2026-01-01T00:00:00Z'),
  activeFrom: from ? at(from) : null,
  activeUntil: until ? at(until) : null,
});

describe('licence quotes', () => {
  const now = at('2026-06-01T00:00:00Z');
  const current = (row: LicenseLevelRow, h: ReturnType<typeof holder>) => ({
    level: row,
    status: licenseStatus(row, h, now),
  });

  it.each([
    {
      name: 'FREE → PRO1: full price, a year from now',
      from: current(FREE, holder(null, null)),
      to: PRO1,
      expected: { kind: 'purchase', price: 100n * U, activeUntil: '2027-06-01T00:00:00.000Z' },
    },
    {
      name: 'unexpired PRO1 → PRO2: the difference, expiry unchanged',
      from: current(PRO1, holder('2026-03-01T00:00:00Z', '2027-03-01T00:00:00Z')),
      to: PRO2,
      expected: { kind: 'upgrade', price: 200n * U, activeUntil: '2027-03-01T00:00:00.000Z' },
    },
    {
      name: 'expired PRO1 → PRO2: full price, a year from now',
      from: current(PRO1, holder('2025-03-01T00:00:00Z', '2026-03-01T00:00:00Z')),
      to: PRO2,
      expected: { kind: 'purchase', price: 300n * U, activeUntil: '2027-06-01T00:00:00.000Z' },
    },
    {
      name: 'expired PRO2 → PRO2 again: full price, a year from now (no renewal after the end)',
      from: current(PRO2, holder('2025-03-01T00:00:00Z', '2026-03-01T00:00:00Z')),
      to: PRO2,
      expected: { kind: 'purchase', price: 300n * U, activeUntil: '2027-06-01T00:00:00.000Z' },
    },
    {
      name: 'expired PRO2 → PRO1: a new purchase may take a lower level',
      from: current(PRO2, holder('2025-03-01T00:00:00Z', '2026-03-01T00:00:00Z')),
      to: PRO1,
      expected: { kind: 'purchase', price: 100n * U, activeUntil: '2027-06-01T00:00:00.000Z' },
    },
  ])('$name', ({ from, to, expected }) => {
    const result = quoteUpgrade(from, to, now);
    if (!result.ok) throw new Error(result.code);
    expect({ ...result.quote, activeUntil: result.quote.activeUntil.toISOString() }).toMatchObject(expected);
  });

  it('refuses the same or a lower level while the licence runs, and FREE always', () => {
    const pro2 = current(PRO2, holder('2026-03-01T00:00:00Z', '2027-03-01T00:00:00Z'));
    expect(quoteUpgrade(pro2, PRO2, now)).toEqual({ ok: false, code: 'LICENSE_NOT_UPGRADE' });
    expect(quoteUpgrade(pro2, PRO1, now)).toEqual({ ok: false, code: 'LICENSE_NOT_UPGRADE' });
    const expired = current(PRO2, holder('2025-03-01T00:00:00Z', '2026-03-01T00:00:00Z'));
    expect(quoteUpgrade(expired, FREE, now)).toEqual({ ok: false, code: 'LICENSE_NOT_UPGRADE' });
  });

  it.each([
    {
      name: 'inside the last 30 days: 20 % off, from the end',
      h: holder('2025-06-20T00:00:00Z', '2026-06-20T00:00:00Z'),
      result: {
        price: 80n * U,
        activeUntil: '2027-06-20T00:00:00.000Z',
        activeFrom: '2025-06-20T00:00:00.000Z',
      },
    },
    {
      name: 'on its last millisecond',
      h: holder('2025-06-01T00:00:00Z', '2026-06-01T00:00:00.001Z'),
      result: {
        price: 80n * U,
        activeUntil: '2027-06-01T00:00:00.001Z',
        activeFrom: '2025-06-01T00:00:00.000Z',
      },
    },
    {
      name: 'on the first day of the window (30 days before the end)',
      h: holder('2025-07-01T00:00:00Z', '2026-07-01T00:00:00Z'),
      result: {
        price: 80n * U,
        activeUntil: '2027-07-01T00:00:00.000Z',
        activeFrom: '2025-07-01T00:00:00.000Z',
      },
    },
  ])('renewal $name', ({ h, result }) => {
    const quote = quoteRenewal(current(PRO1, h));
    if (!quote.ok) throw new Error(quote.code);
    expect({
      price: quote.quote.price,
      activeUntil: quote.quote.activeUntil.toISOString(),
      activeFrom: quote.quote.activeFrom.toISOString(),
    }).toEqual(result);
  });

  it('refuses renewal before the window, after the end (a new purchase then), and of FREE', () => {
    const unavailable = { ok: false, code: 'LICENSE_RENEWAL_UNAVAILABLE' };
    expect(quoteRenewal(current(PRO1, holder('2026-03-01T00:00:00Z', '2027-03-01T00:00:00Z')))).toEqual(
      unavailable,
    );
    // 30 days and a millisecond before the end: not yet.
    expect(quoteRenewal(current(PRO1, holder('2025-07-01T00:00:00Z', '2026-07-01T00:00:00.001Z')))).toEqual(
      unavailable,
    );
    expect(quoteRenewal(current(FREE, holder(null, null)))).toEqual(unavailable);
    const expired = { ok: false, code: 'LICENSE_RENEWAL_EXPIRED' };
    expect(quoteRenewal(current(PRO1, holder('2025-05-01T00:00:00Z', '2026-05-01T00:00:00Z')))).toEqual(
      expired,
    );
    // On the end itself the licence has expired.
    expect(quoteRenewal(current(PRO1, holder('2025-06-01T00:00:00Z', '2026-06-01T00:00:00Z')))).toEqual(
      expired,
    );
  });

  it('converts prices exactly', () => {
    expect(usdtToMicro('1200')).toBe(1200n * U);
    expect(usdtToMicro('0.000001')).toBe(1n);
    expect(() => usdtToMicro('0.0000001')).toThrow(RangeError);
  });
});
