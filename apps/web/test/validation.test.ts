import { describe, expect, it } from 'vitest';
import {
  checkDecimal,
  checkInteger,
  checkKeyText,
  checkRecipient,
  checkTronAddress,
} from '../src/forms/validation';

describe('form validation (spec §5)', () => {
  it('checks decimal amounts against their bounds exactly', () => {
    expect(checkDecimal('')).toEqual({ key: 'required' });
    expect(checkDecimal('abc')).toEqual({ key: 'numeric' });
    expect(checkDecimal('-1')).toEqual({ key: 'decimal' });
    expect(checkDecimal('10.9999999', { min: '11' })).toEqual({ key: 'min', params: { min: '11' } });
    expect(checkDecimal('11', { min: '11' })).toBeNull();
    expect(checkDecimal('11,5', { min: '11' })).toBeNull();
    expect(checkDecimal('301', { max: '300' })).toEqual({ key: 'max', params: { max: '300' } });
    expect(checkDecimal('1.1234567', { maxDecimals: 6 })).toEqual({
      key: 'maxDecimals',
      params: { digits: 6 },
    });
    expect(checkDecimal(5)).toEqual({ key: 'string' });
  });

  it('checks whole numbers', () => {
    expect(checkInteger('1.5')).toEqual({ key: 'integer' });
    expect(checkInteger('0', { min: 1 })).toEqual({ key: 'min', params: { min: 1 } });
    expect(checkInteger('301', { max: 300 })).toEqual({ key: 'max', params: { max: 300 } });
    expect(checkInteger('10', { min: 1, max: 300 })).toBeNull();
  });

  it('checks API key texts: 50 to 100 letters and numbers', () => {
    expect(checkKeyText('a'.repeat(49))).toEqual({ key: 'minLength', params: { min: 50 } });
    expect(checkKeyText('a'.repeat(101))).toEqual({ key: 'maxLength', params: { max: 100 } });
    expect(checkKeyText(`${'a'.repeat(49)}-`)).toEqual({ key: 'alphanumeric' });
    expect(checkKeyText('aB3'.repeat(20))).toBeNull();
    expect(checkKeyText(null)).toEqual({ key: 'string' });
  });

  it('requires a TRC20 withdrawal address and refuses a transfer to yourself', () => {
    expect(checkTronAddress('')).toEqual({ key: 'withdrawAddressRequired' });
    expect(checkTronAddress('0x123')).toEqual({ key: 'tronAddress' });
    expect(checkTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBeNull();
    expect(checkRecipient('42', 42)).toEqual({ key: 'transferToSelf' });
    expect(checkRecipient('43', 42)).toBeNull();
  });
});
