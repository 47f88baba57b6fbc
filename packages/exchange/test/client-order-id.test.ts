import { VENUE_TABLES } from '@gridbot/venues';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  clientOrderIdFor,
  isValidClientOrderId,
  parseClientOrderId,
  venueAcceptsClientOrderId,
} from '../src/index';

describe('clientOrderIdFor', () => {
  it('is deterministic and readable', () => {
    const parts = {
      coinBotId: '6f1c2a9e-4b1d-4c1e-9a55-0b7f3f0d2c11',
      lotSeq: 12,
      side: 'sell' as const,
      attempt: 1,
    };
    const id = clientOrderIdFor(parts);
    expect(id).toBe(clientOrderIdFor({ ...parts }));
    expect(id).toMatch(/^gb[0-9a-f]{16}ScN1$/);
    expect(parseClientOrderId(id)).toMatchObject({ lotSeq: 12, side: 'sell', attempt: 1 });
  });

  it('differs for every part that differs', () => {
    const base = { coinBotId: 42n, lotSeq: 3, side: 'buy' as const, attempt: 0 };
    const ids = new Set([
      clientOrderIdFor(base),
      clientOrderIdFor({ ...base, coinBotId: 43n }),
      clientOrderIdFor({ ...base, lotSeq: 4 }),
      clientOrderIdFor({ ...base, side: 'sell' }),
      clientOrderIdFor({ ...base, attempt: 1 }),
    ]);
    expect(ids.size).toBe(5);
  });

  it('always gives an id every venue accepts (≤ 32 letters and digits) that parses back', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.integer(), fc.bigInt()),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.constantFrom('buy' as const, 'sell' as const),
        fc.integer({ min: 0, max: 10_000 }),
        (coinBotId, lotSeq, side, attempt) => {
          const id = clientOrderIdFor({ coinBotId, lotSeq, side, attempt });
          expect(isValidClientOrderId(id)).toBe(true);
          for (const venue of Object.values(VENUE_TABLES)) {
            expect(venue.clientOrderId.pattern.test(id), venue.id).toBe(true);
          }
          expect(parseClientOrderId(id)).toMatchObject({ lotSeq, side, attempt });
        },
      ),
    );
  });

  it('refuses negative or fractional counters', () => {
    expect(() => clientOrderIdFor({ coinBotId: 1, lotSeq: -1, side: 'buy', attempt: 0 })).toThrow(/lotSeq/);
    expect(() => clientOrderIdFor({ coinBotId: 1, lotSeq: 1, side: 'buy', attempt: 0.5 })).toThrow(/attempt/);
  });

  it('fits every venue table at its longest (lot 2^31 − 1, attempt 10,000)', () => {
    const id = clientOrderIdFor({ coinBotId: 'x', lotSeq: 2 ** 31 - 1, side: 'sell', attempt: 10_000 });
    expect(id.length).toBeLessThanOrEqual(32);
    for (const venue of Object.values(VENUE_TABLES)) {
      expect(id.length, venue.id).toBeLessThanOrEqual(venue.clientOrderId.maxLength);
      expect(venue.clientOrderId.pattern.test(id), venue.id).toBe(true);
    }
  });

  it('still reads the ids of the earlier format (orders placed before 2026-11-28)', () => {
    expect(parseClientOrderId('gb_0123456789abcdef_c_s_1')).toEqual({
      botHash: '0123456789abcdef',
      lotSeq: 12,
      side: 'sell',
      attempt: 1,
    });
    const id = clientOrderIdFor({ coinBotId: 7, lotSeq: 12, side: 'buy', attempt: 2 });
    const hash = parseClientOrderId(id)?.botHash;
    expect(parseClientOrderId(`gb_${hash}_c_b_2`)?.botHash).toBe(hash);
  });

  it("checks a caller's own id by the venue's rule, and ours where we have no table", () => {
    expect(venueAcceptsClientOrderId('binance', 'entry-crash')).toBe(true);
    expect(venueAcceptsClientOrderId('binance', 'a'.repeat(37))).toBe(false);
    expect(venueAcceptsClientOrderId('kraken', 'entry-crash')).toBe(false);
    expect(venueAcceptsClientOrderId('kraken', 'entrycrash')).toBe(true);
  });

  it('does not parse ids it did not make', () => {
    expect(parseClientOrderId('x-TKT5PX2Fabc')).toBeNull();
    expect(parseClientOrderId('gb0123456789abcdefXcN1')).toBeNull();
    expect(parseClientOrderId('gb_0123456789abcdef_c_x_1')).toBeNull();
  });
});
