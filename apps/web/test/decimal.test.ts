import { describe, expect, it } from 'vitest';
import {
  compareDecimals,
  localizeDecimal,
  maxAbsOf,
  ratioOf,
  roundDecimal,
  signOf,
  trimDecimal,
} from '../src/format/decimal';
import { KNOWN_NUMBER_SYMBOLS } from '../src/format/use-format';

const en = { group: ',', decimal: '.' };
const ru = { group: '\u00a0', decimal: ',' };

describe('decimal strings', () => {
  it.each([
    ['1.005', 2, '1.01'],
    ['1.004', 2, '1.00'],
    ['0.999', 2, '1.00'],
    ['-0.004', 2, '0.00'],
    ['-2.555', 2, '-2.56'],
    ['123456789012345678.123456', 2, '123456789012345678.12'],
    ['7', 2, '7.00'],
    ['1.5', 0, '2'],
  ])('rounds %s to %i decimals → %s', (value, digits, expected) => {
    expect(roundDecimal(value, digits)).toBe(expected);
  });

  it('never goes through a float', () => {
    expect(roundDecimal('0.1', 20)).toBe('0.10000000000000000000');
    expect(roundDecimal('9007199254740993.5', 0)).toBe('9007199254740994');
  });

  it('trims trailing zeros and formats with the locale symbols', () => {
    expect(trimDecimal('10.500000')).toBe('10.5');
    expect(trimDecimal('10.000', 2)).toBe('10.00');
    expect(localizeDecimal('1234567.50', en)).toBe('1,234,567.50');
    expect(localizeDecimal('1234567.50', ru)).toBe('1\u00a0234\u00a0567,50');
    expect(localizeDecimal('-12.5', en)).toBe('−12.5');
    expect(localizeDecimal('12.5', en, { plus: true })).toBe('+12.5');
    expect(localizeDecimal('0.00', en, { plus: true })).toBe('0.00');
  });

  it('knows the sign, compares and scales for drawing', () => {
    expect(signOf('-0.01')).toBe('negative');
    expect(signOf('0.000')).toBe('zero');
    expect(signOf('3')).toBe('positive');
    expect(compareDecimals('11', '10.999999')).toBe(1);
    expect(compareDecimals('-1', '0')).toBe(-1);
    expect(compareDecimals('2.50', '2.5')).toBe(0);
    expect(maxAbsOf(['1.5', '-3', '2'])).toBe('3');
    expect(ratioOf('-1.5', '3')).toBe(0.5);
    expect(ratioOf('1', '0')).toBe(0);
  });
});

describe("the app's locales' number symbols", () => {
  it.each(Object.entries(KNOWN_NUMBER_SYMBOLS))('%s: the ones Intl gives', (locale, symbols) => {
    const parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
    expect(symbols).toEqual({
      group: parts.find((part) => part.type === 'group')?.value,
      decimal: parts.find((part) => part.type === 'decimal')?.value,
    });
  });
});
