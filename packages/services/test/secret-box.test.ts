import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, maskKey, parseSecretKeys } from '../src/crypto/secret-box';

describe('secret box', () => {
  const key = randomBytes(32);
  const box = createSecretBox([key]);

  it('round-trips and never stores the plaintext', () => {
    const sealed = box.seal('my-api-secret', '7:binance');
    expect(Buffer.from(sealed.cipher).toString('utf8')).not.toContain('my-api-secret');
    expect(box.open(sealed, '7:binance')).toBe('my-api-secret');
  });

  it('refuses another owner (additional data) and a tampered ciphertext', () => {
    const sealed = box.seal('s3cret', '7:binance');
    expect(() => box.open(sealed, '8:binance')).toThrow();
    const tampered = { ...sealed, cipher: Uint8Array.from(sealed.cipher, (b, i) => (i === 0 ? b ^ 1 : b)) };
    expect(() => box.open(tampered, '7:binance')).toThrow();
  });

  it('opens records sealed with an older key after rotation', () => {
    const old = box.seal('legacy', '1:binance');
    const rotated = createSecretBox([randomBytes(32), key]);
    expect(rotated.open(old, '1:binance')).toBe('legacy');
    expect(rotated.seal('new', '1:binance').keyId).not.toBe(old.keyId);
  });

  it('parses hex and base64 keys and masks keys', () => {
    const hex = randomBytes(32).toString('hex');
    const b64 = randomBytes(32).toString('base64');
    expect(parseSecretKeys(`${hex}, ${b64}`).map((k) => k.length)).toEqual([32, 32]);
    expect(maskKey('abcdEFGHijklMNOP')).toBe('abcd••••MNOP');
  });
});
