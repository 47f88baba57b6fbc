import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tradeFeeMicro } from '../src/fees/trade-fee';

describe('trading fee of a closed lot', () => {
  it.each([
    ['1', 200_000n],
    ['0.123456789', 24_691n], // 0.0246913578 → rounded down to the micro-USDT
    ['0.000004', 0n], // 0.8 micro-USDT: nothing to charge
    ['0.000005', 1n],
    ['123456.789012', 24_691_357_802n],
    ['0', 0n],
    ['-3.5', 0n], // a loss pays nothing
  ])('profit %s → %s micro-USDT', (pnl, fee) => {
    expect(tradeFeeMicro(pnl)).toBe(fee);
  });

  it('never exceeds 20 % of the profit and is within one micro-USDT of it', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        fc.integer({ min: 0, max: 12 }),
        (units, scale) => {
          const pnl = `${units}e-${scale}`;
          const fee = tradeFeeMicro(pnl);
          // exact: fee ≤ pnl × 0.2 × 10^6 < fee + 1
          const exact = (units * 2n * 10n ** 5n) as bigint;
          const denominator = 10n ** BigInt(scale);
          expect(fee * denominator <= exact).toBe(true);
          expect((fee + 1n) * denominator > exact).toBe(true);
        },
      ),
    );
  });
});
