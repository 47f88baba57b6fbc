import { describe, expect, it } from 'vitest';
import {
  demoDepositKey,
  demoXpub,
  deriveDepositAddress,
  isTronAddress,
  tronAddressOfPrivateKey,
  tronBase58Of,
  tronHexOf,
} from '../../src/wallet/tron-keys';

describe('TRON keys', () => {
  it('derives the BIP-44 TRON addresses of the test phrase from the extended public key alone', () => {
    const xpub = demoXpub();
    expect(xpub.startsWith('xpub')).toBe(true);
    // The well-known first TRON address of the all-"abandon" test phrase (m/44'/195'/0'/0/0).
    expect(deriveDepositAddress(xpub, 0)).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
    for (const index of [1, 7, 100_001]) {
      expect(deriveDepositAddress(xpub, index)).toBe(tronAddressOfPrivateKey(demoDepositKey(index)));
    }
    expect(() => deriveDepositAddress(xpub, -1)).toThrow(RangeError);
    expect(() => deriveDepositAddress(xpub, 2 ** 31)).toThrow(RangeError);
  });

  it('accepts only 34-character base58check addresses with the 0x41 prefix', () => {
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true);
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBe(false); // checksum
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6')).toBe(false); // length
    expect(isTronAddress('0xa614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe(false);
    expect(isTronAddress('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')).toBe(false); // Bitcoin, 0x00 prefix
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj0t')).toBe(false); // 0 is not base58
  });

  it('converts between base58 and the hex forms the node API uses', () => {
    const hex = tronHexOf('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    expect(hex).toBe('41a614f803b6fd780986a42c78ec9c7f77e6ded13c');
    expect(tronBase58Of(hex)).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    expect(tronBase58Of(`0x${hex.slice(2)}`)).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
  });
});
