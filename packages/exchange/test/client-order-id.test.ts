import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientOrderIdFor, isValidClientOrderId, parseClientOrderId } from '../src/index';

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
    expect(id).toMatch(/^gb_[0-9a-f]{16}_c_s_1$/);
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

  it('always gives a Binance-valid id (≤ 36 chars of [A-Za-z0-9_-]) that parses back', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.integer(), fc.bigInt()),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.constantFrom('buy' as const, 'sell' as const),
        fc.integer({ min: 0, max: 10_000 }),
        (coinBotId, lotSeq, side, attempt) => {
          const id = clientOrderIdFor({ coinBotId, lotSeq, side, attempt });
          expect(isValidClientOrderId(id)).toBe(true);
          expect(id.length).toBeLessThanOrEqual(36);
          expect(parseClientOrderId(id)).toMatchObject({ lotSeq, side, attempt });
        },
      ),
    );
  });

  it('refuses negative or fractional counters', () => {
    expect(() => clientOrderIdFor({ coinBotId: 1, lotSeq: -1, side: 'buy', attempt: 0 })).toThrow(/lotSeq/);
    expect(() => clientOrderIdFor({ coinBotId: 1, lotSeq: 1, side: 'buy', attempt: 0.5 })).toThrow(/attempt/);
  });

  it('does not parse ids it did not make', () => {
    expect(parseClientOrderId('x-TKT5PX2Fabc')).toBeNull();
  });
});
