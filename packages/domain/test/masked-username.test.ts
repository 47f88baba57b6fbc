import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskUsername } from '../src/wallet/masked-username';

describe('maskUsername (docs/wallet.md#internal-transfer)', () => {
  it.each([
    ['demo_trader', 'de…er'],
    ['Alice_Trader', 'Al…er'],
    ['abcdefgh', 'ab…gh'],
    ['abcdefg', 'a…g'],
    ['alice', 'a…e'],
    ['abcd', 'a…d'],
    ['bob', 'b…'],
    ['ab', 'a…'],
    ['x', '…'],
    ['', null],
    ['   ', null],
    [null, null],
  ])('%s → %s', (name, masked) => {
    expect(maskUsername(name)).toBe(masked);
  });

  it('never shows the whole name, nor more than half of it', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_]{1,32}$/), (name) => {
        const masked = maskUsername(name) as string;
        const shown = masked.replace('…', '');
        expect(masked).toContain('…');
        expect(shown).not.toBe(name);
        expect(shown.length * 2).toBeLessThanOrEqual(name.length);
        expect(name.startsWith(masked.split('…')[0] as string)).toBe(true);
        expect(name.endsWith(masked.split('…')[1] as string)).toBe(true);
      }),
    );
  });
});
