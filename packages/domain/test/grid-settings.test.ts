import { describe, expect, it } from 'vitest';
import { deepestAveragingStepPct, gridSettingsFromStrings, validateGridSettings } from '../src/grid/settings';

const valid = { orderSize: '10', stepPct: '1', stepIncreasePct: '0.1', maxTrades: 10 };
const codesFor = (overrides: Partial<typeof valid>) =>
  validateGridSettings(gridSettingsFromStrings({ ...valid, ...overrides })).map((e) => [e.code, e.field]);

describe('validateGridSettings: the contract bounds (order size 6–100000, step 0.5–10, increase 0–10, trades 1–300)', () => {
  it.each([
    [{}, []],
    [{ orderSize: '6', stepPct: '0.5', stepIncreasePct: '0', maxTrades: 1 }, []],
    [{ orderSize: '100000', stepPct: '10', stepIncreasePct: '0.3', maxTrades: 300 }, []],
    [{ orderSize: '5.99' }, [['ORDER_SIZE_OUT_OF_RANGE', 'orderSize']]],
    [{ orderSize: '100000.01' }, [['ORDER_SIZE_OUT_OF_RANGE', 'orderSize']]],
    [{ stepPct: '0.49' }, [['STEP_OUT_OF_RANGE', 'stepPct']]],
    [{ stepPct: '10.01' }, [['STEP_OUT_OF_RANGE', 'stepPct']]],
    [{ stepIncreasePct: '10.5' }, [['STEP_INCREASE_OUT_OF_RANGE', 'stepIncreasePct']]],
    [{ stepIncreasePct: '-0.1' }, [['STEP_INCREASE_OUT_OF_RANGE', 'stepIncreasePct']]],
    [{ maxTrades: 0 }, [['MAX_TRADES_OUT_OF_RANGE', 'maxTrades']]],
    [{ maxTrades: 301 }, [['MAX_TRADES_OUT_OF_RANGE', 'maxTrades']]],
    [{ maxTrades: 2.5 }, [['MAX_TRADES_OUT_OF_RANGE', 'maxTrades']]],
    // 10 + 98 × 1 = 108 % ≥ 100 %: the deepest buy would be at a negative price.
    [
      { stepPct: '10', stepIncreasePct: '1', maxTrades: 100 },
      [['DEEPEST_STEP_TOO_LARGE', 'stepIncreasePct']],
    ],
    [
      { orderSize: '1', stepPct: '20' },
      [
        ['ORDER_SIZE_OUT_OF_RANGE', 'orderSize'],
        ['STEP_OUT_OF_RANGE', 'stepPct'],
      ],
    ],
  ] as [Partial<typeof valid>, string[][]][])('%o → %j', (overrides, expected) => {
    expect(codesFor(overrides)).toEqual(expected);
  });

  it('computes the deepest step as s + (N − 2) × d, and s alone for N ≤ 2', () => {
    const deepest = (s: string, inc: string, n: number) =>
      deepestAveragingStepPct(
        gridSettingsFromStrings({ orderSize: '10', stepPct: s, stepIncreasePct: inc, maxTrades: n }),
      ).toFixed();
    expect(deepest('1', '0.1', 10)).toBe('1.8');
    expect(deepest('2', '0.5', 2)).toBe('2');
    expect(deepest('2', '0.5', 1)).toBe('2');
    expect(deepest('9.5', '0.3', 300)).toBe('98.9');
  });

  it('gives every error a message a user can act on', () => {
    const [error] = validateGridSettings(gridSettingsFromStrings({ ...valid, stepPct: '0.1' }));
    expect(error?.message).toBe('step must be between 0.5 and 10 %');
  });
});
