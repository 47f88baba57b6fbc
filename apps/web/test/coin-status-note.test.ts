import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/locales/en';
import { dryNoteOf } from '../src/screens/shared/coin-status-note';

const text = (key: string) =>
  key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], en) as string;

describe('the drying note of a coin', () => {
  it('says a paused coin does nothing, not that it sells, whatever dries it', () => {
    for (const dryReason of ['coin', 'all', 'license_expired', 'fee_balance_empty'] as const) {
      const note = dryNoteOf({ running: false, dryReason });
      expect(text(note?.full ?? '')).toMatch(/^Paused: this coin neither buys nor sells/);
      expect(text(note?.short ?? '')).toBe('paused: neither buys nor sells');
    }
  });

  it('says a running dry coin only sells, and nothing for a coin that is not dry', () => {
    expect(text(dryNoteOf({ running: true, dryReason: 'coin' })?.full ?? '')).toBe(en.coinStatus.dry.coin);
    expect(dryNoteOf({ running: true, dryReason: null })).toBeNull();
    expect(dryNoteOf({ running: false, dryReason: null })).toBeNull();
  });
});
