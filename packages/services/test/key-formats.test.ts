import { KEY_FORMATS } from '@gridbot/contracts';
import { VENUE_TABLES } from '@gridbot/venues';
import { describe, expect, it } from 'vitest';

/**
 * The key formats users are held to (the contract's KEY_FORMATS, also the mini app's) and the venue
 * tables' rules (docs/venues/*.md#keys) say the same: a key the contract accepts is one the venue's
 * table accepts, except Binance's, which the spec narrows to 50–100 letters and digits.
 */
const SAMPLES: Record<keyof typeof KEY_FORMATS, { apiKey: string; secretKey: string; passphrase?: string }> =
  {
    binance: { apiKey: 'aB3'.repeat(20), secretKey: 'x9Y'.repeat(22) },
    bybit: { apiKey: 'XbYk7Qe2LmNp4RsT9v', secretKey: 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789' },
    okx: {
      apiKey: '0f3a9c1e-8b2d-4e6f-9a7b-1c2d3e4f5a6b',
      secretKey: '0123456789ABCDEF0123456789ABCDEF',
      passphrase: 'Grid-Pass9!',
    },
  };

describe.each(Object.keys(KEY_FORMATS) as Array<keyof typeof KEY_FORMATS>)('%s keys', (venue) => {
  const formats = KEY_FORMATS[venue];
  const table = VENUE_TABLES[venue]?.keys;

  it('are accepted by the contract and by the venue table alike', () => {
    const sample = SAMPLES[venue];
    expect(table).toBeDefined();
    expect(formats.apiKey.safeParse(sample.apiKey).success).toBe(true);
    expect(table?.keyPattern.test(sample.apiKey)).toBe(true);
    expect(formats.secretKey.safeParse(sample.secretKey).success).toBe(true);
    expect(table?.secretPattern.test(sample.secretKey)).toBe(true);
    expect(formats.passphrase !== null).toBe(table?.passphrase);
    if (formats.passphrase && sample.passphrase) {
      expect(formats.passphrase.safeParse(sample.passphrase).success).toBe(true);
      expect(table?.passphrasePattern?.test(sample.passphrase)).toBe(true);
    }
  });

  it("accepts nothing the venue's table would refuse", () => {
    for (const text of ['', 'a b', 'ключ', `${SAMPLES[venue].apiKey}!`]) {
      if (formats.apiKey.safeParse(text).success) expect(table?.keyPattern.test(text.trim())).toBe(true);
    }
  });
});
