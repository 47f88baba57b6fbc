import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { runReturn } from '../src/grid/run-return';

const DAY_MS = 86_400_000;
const now = new Date('2026-11-30T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const text = (value: Decimal | null) => value?.toDecimalPlaces(6, Decimal.ROUND_HALF_EVEN).toFixed() ?? null;

describe('runReturn (docs/pnl.md#runtime-and-return)', () => {
  it.each([
    // realized, capital, runtime, return %, annualized %
    ['3', '300', 30 * DAY_MS, '1', '12.166667'],
    ['3', '300', DAY_MS, '1', '365'],
    ['-1.5', '300', 73 * DAY_MS, '-0.5', '-2.5'],
    ['0', '300', 2 * DAY_MS, '0', '0'],
    // Under a day the annualized figure would be noise: none.
    ['3', '300', DAY_MS - 1, '1', null],
    ['3', '300', 0, '1', null],
  ] as const)('%s over %s for %s ms: %s %%, %s %% a year', (realized, capital, runtime, pct, annual) => {
    const run = runReturn({ realizedPnl: realized, capital, startedAt: ago(runtime), now });
    expect(text(run.returnPct)).toBe(pct);
    expect(text(run.annualizedPct)).toBe(annual);
    expect(run.runtimeSeconds).toBe(Math.floor(runtime / 1000));
  });

  it('has no return without capital, and no runtime before the first start', () => {
    expect(runReturn({ realizedPnl: '5', capital: '0', startedAt: ago(9 * DAY_MS), now })).toEqual({
      runtimeSeconds: 9 * 86_400,
      returnPct: null,
      annualizedPct: null,
    });
    const never = runReturn({ realizedPnl: '0', capital: '100', startedAt: null, now });
    expect(never.runtimeSeconds).toBeNull();
    expect(never.annualizedPct).toBeNull();
    expect(text(never.returnPct)).toBe('0');
  });

  it('annualizes simply, not compounded, from exact figures', () => {
    // 1 % in 73 days: 5 % a year (compounding would say 5.1 %).
    const run = runReturn({ realizedPnl: '0.000001', capital: '0.0001', startedAt: ago(73 * DAY_MS), now });
    expect(run.annualizedPct?.toFixed()).toBe('5');
  });
});
