import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromMicro, isLedgerError, toMicro } from '../src/index';

describe('toMicro', () => {
  it.each([
    ['0', 0n],
    ['1', 1_000_000n],
    ['12.345678', 12_345_678n],
    ['0.000001', 1n],
    ['11.1', 11_100_000n],
    ['-0.5', -500_000n],
    ['007.10', 7_100_000n],
    ['9223372036854.775807', 9_223_372_036_854_775_807n],
  ])('%s → %s', (input, expected) => {
    expect(toMicro(input)).toBe(expected);
  });

  it.each(['', '1.2345678', '0.0000001', '.5', '5.', '+1', '1e6', ' 1', '1,5', 'NaN', '--1', '0x10'])(
    'refuses %j with INVALID_AMOUNT',
    (input) => {
      expect(() => toMicro(input)).toThrow(expect.objectContaining({ code: 'INVALID_AMOUNT' }));
    },
  );

  it('refuses a number (money never travels as a float)', () => {
    let error: unknown;
    try {
      toMicro(1.5 as unknown as string);
    } catch (caught) {
      error = caught;
    }
    expect(isLedgerError(error, 'INVALID_AMOUNT')).toBe(true);
  });
});

describe('fromMicro', () => {
  it.each([
    [0n, '0'],
    [1n, '0.000001'],
    [12_345_678n, '12.345678'],
    [12_000_000n, '12'],
    [11_100_000n, '11.1'],
    [-500_000n, '-0.5'],
    [-1n, '-0.000001'],
  ])('%s → %s', (input, expected) => {
    expect(fromMicro(input)).toBe(expected);
  });

  it('round-trips every micro amount exactly', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), (micro) => {
        expect(toMicro(fromMicro(micro))).toBe(micro);
      }),
    );
  });

  it('round-trips every wire-format decimal string to its canonical form', () => {
    const decimal = fc
      .tuple(
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.option(fc.stringMatching(/^\d{1,6}$/), { nil: undefined }),
      )
      .map(([whole, fraction]) => (fraction === undefined ? `${whole}` : `${whole}.${fraction}`));
    fc.assert(
      fc.property(decimal, (text) => {
        const canonical = text.includes('.') ? text.replace(/\.?0+$/, '') : text;
        expect(fromMicro(toMicro(text))).toBe(canonical);
      }),
    );
  });
});
