import { describe, expect, it } from 'vitest';
import { KlineHistory } from '../src/exchange/klines';
import { Dec } from '../src/exchange/money';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

describe('KlineHistory one-second candles', () => {
  it('keeps the low and high of a dip and recovery inside one second', () => {
    const history = new KlineHistory();
    history.record(new Dec('1'), undefined, 0, T0 + 100);
    history.record(new Dec('0.98'), undefined, 0, T0 + 350);
    history.record(new Dec('1.01'), undefined, 0, T0 + 600);
    history.record(new Dec('1'), undefined, 0, T0 + 1_100);
    const rows = history.klines('1s', { startTime: T0, limit: 10 });
    expect(rows.map((r) => [r[0], r[2], r[3], r[4]])).toEqual([
      [T0, '1.01000000', '0.98000000', '1.01000000'],
      [T0 + 1000, '1.00000000', '1.00000000', '1.00000000'],
    ]);
    expect(history.klines('1s', { startTime: T0 + 1000, limit: 10 })).toHaveLength(1);
  });

  it('keeps ten minutes of seconds, while the minutes keep their day', () => {
    const history = new KlineHistory();
    for (let s = 0; s < 700; s += 1) history.record(new Dec(s + 1), undefined, 0, T0 + s * 1000);
    const seconds = history.klines('1s', { limit: 1000 });
    expect(seconds).toHaveLength(600);
    expect(seconds[0]?.[0]).toBe(T0 + 100_000);
    expect(history.klines('1m', { limit: 1000 })).toHaveLength(12);
  });
});
