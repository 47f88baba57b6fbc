import { describe, expect, it } from 'vitest';
import { CandlePast } from '../src/exchange/candle-past';
import { Dec } from '../src/exchange/money';
import type { Candle } from '../src/exchange/price-feed';

const MINUTE = 60_000;
const candle = (i: number, open: string, high: string, low: string, close: string): Candle => ({
  time: i * 5 * MINUTE,
  open,
  high,
  low,
  close,
  volume: '10',
});
// A 5-minute series: rises, rises, falls.
const SERIES = [
  candle(0, '1', '1.2', '0.9', '1.1'),
  candle(1, '1.1', '1.5', '1.1', '1.4'),
  candle(2, '1.4', '1.4', '1.2', '1.3'),
];
const END = 1_000 * 5 * MINUTE;

describe('the past of a replayed market', () => {
  const past = new CandlePast(SERIES, new Dec(2), END, 1);

  it('ends at the live feed first price: the last past candle is the first one time-reversed', () => {
    expect(past.resolution).toBe(5 * MINUTE);
    const last = past.candleAt(END - 5 * MINUTE);
    expect([last.open, last.high, last.low, last.close].map(String)).toEqual(['2.2', '2.4', '1.8', '2']);
  });

  it('alternates reversed and forward copies, so neighbouring candles meet at the same price', () => {
    const candles = past.candlesSince(END - 12 * 5 * MINUTE);
    expect(candles).toHaveLength(12);
    expect(candles.map((c) => c.close.toString())).toEqual(
      // Newest last: reversed copy (closes 2.8, 2.2, 2), forward copy (2.2, 2.8, 2.6), and again.
      ['2.2', '2.8', '2.6', '2.8', '2.2', '2', '2.2', '2.8', '2.6', '2.8', '2.2', '2'],
    );
    for (let i = 1; i < candles.length; i++) {
      const near = candles[i]!.open.sub(candles[i - 1]!.close).abs();
      expect(near.lte('0.2')).toBe(true);
    }
  });

  it('cuts a coarser candle into finer ones along its path, keeping its open, close, high and low', () => {
    const t = END - 5 * MINUTE;
    const minutes = past.buckets(MINUTE, { from: t, to: END, limit: 10, newest: false });
    expect(minutes).toHaveLength(5);
    expect(minutes[0]!.open.toString()).toBe('2.2');
    expect(minutes.at(-1)!.close.toString()).toBe('2');
    expect(Dec.max(...minutes.map((m) => m.high)).toString()).toBe('2.4');
    expect(Dec.min(...minutes.map((m) => m.low)).toString()).toBe('1.8');
    const whole = past.bucket(5 * MINUTE, t)!;
    expect(whole.volume.toString()).toBe('10');
  });

  it('reaches back the given number of days and no further', () => {
    expect(past.start).toBe(END - 86_400_000);
    expect(past.bucket(MINUTE, past.start - MINUTE)).toBeUndefined();
    const days = past.buckets(86_400_000, { to: END, limit: 5, newest: true });
    expect(days.length).toBeGreaterThanOrEqual(1);
  });
});
