import { describe, expect, it } from 'vitest';
import {
  compareDecimals,
  localizeDecimal,
  maxAbsOf,
  ratioOf,
  roundDecimal,
  signOf,
  stepDecimals,
  toStep,
  trimDecimal,
} from '../src/format/decimal';
import { createFormatters, KNOWN_NUMBER_SYMBOLS } from '../src/format/use-format';

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

describe('prices at the tick and quantities at the lot step (docs/conventions.md#money-and-numbers)', () => {
  it.each([
    ['0.01000000', 2],
    ['0.5', 1],
    ['1', 0],
    ['1.00', 0],
    ['10', 0],
    ['0.00000001', 8],
  ])('a step of %s shows %i decimals', (step, decimals) => {
    expect(stepDecimals(step)).toBe(decimals);
  });

  it.each(['0', '0.000', '-0.01', 'x', ''])('%j is no step', (step) => {
    expect(stepDecimals(step)).toBeNull();
    expect(toStep('1.23', step, 'nearest')).toBeNull();
  });

  it.each([
    // Zeros kept to the tick: the 79.4 and 3,394.7.
    ['79.4', '0.01', '79.40'],
    ['3394.7', '0.01000000', '3394.70'],
    // The planner's raw take profit and average price, as the exchange would carry them.
    ['3352.22775', '0.01', '3352.23'],
    ['3455.97287942', '0.01', '3455.97'],
    ['76.92785975', '0.001', '76.928'],
    // Half a tick goes up, as ccxt's priceToPrecision (ROUND) does; less stays.
    ['1.005', '0.01', '1.01'],
    ['1.00499999999999999999', '0.01', '1.00'],
    // A tick that is not a power of ten: the nearest multiple of it.
    ['10.26', '0.05', '10.25'],
    ['10.275', '0.05', '10.30'],
    ['0.74', '0.5', '0.5'],
    ['0.75', '0.5', '1.0'],
    ['1234', '10', '1230'],
    ['65420.5', '0.01', '65420.50'],
    ['0.00000004', '0.00000001', '0.00000004'],
    ['0', '0.01', '0.00'],
  ])('the price %s at tick %s is %s', (value, tick, expected) => {
    expect(toStep(value, tick, 'nearest')).toBe(expected);
  });

  it.each([
    ['0.2650192', '0.0001', '0.2650'],
    ['0.00730693', '0.0001', '0.0073'],
    ['5', '0.01', '5.00'],
    ['12.999', '1', '12'],
    ['0.00009', '0.0001', '0.0000'],
  ])('the quantity %s at step %s is %s (truncated, as an order carries it)', (value, step, expected) => {
    expect(toStep(value, step, 'down')).toBe(expected);
  });

  it('keeps a sign and never goes through a float', () => {
    expect(toStep('-2.555', '0.01', 'nearest')).toBe('-2.56');
    expect(toStep('-0.004', '0.01', 'nearest')).toBe('0.00');
    expect(toStep('9007199254740993.123', '0.01', 'nearest')).toBe('9007199254740993.12');
  });

  it('formats in each locale with the tick and the step, and as before without them', () => {
    const [en, ru, cn] = ['en-US', 'ru-RU', 'zh-CN'].map(createFormatters);
    expect(en!.price('3394.7', '0.01')).toBe('3,394.70');
    expect(ru!.price('3394.7', '0.01')).toBe('3\u00a0394,70');
    expect(cn!.price('3352.22775', '0.01')).toBe('3,352.23');
    expect(en!.qty('0.2650192', '0.0001')).toBe('0.2650');
    expect(ru!.qty('0.2650192', '0.0001')).toBe('0,2650');
    expect(en!.price('3394.70', null)).toBe('3,394.7');
    expect(en!.qty('0.2650192', undefined)).toBe('0.2650192');
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
