import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPriceFeed, loadCandleFile } from '../src/exchange/price-feed';

const take = (feed: { next(): { toFixed(): string } }, n: number) =>
  Array.from({ length: n }, () => feed.next().toFixed());

describe('candle replay', () => {
  const candles = [
    { time: 0, open: '2', high: '2.5', low: '1.5', close: '2.2', volume: '1' },
    { time: 60_000, open: '2.2', high: '2.3', low: '1.9', close: '2', volume: '1' },
  ];

  it('walks O→L→H→C on a rising candle and O→H→L→C on a falling one', () => {
    expect(take(createPriceFeed({ kind: 'candles', candles }), 8)).toEqual([
      '2',
      '1.5',
      '2.5',
      '2.2',
      '2.2',
      '2.3',
      '1.9',
      '2',
    ]);
  });

  it('rescales the series so that its first close is the given price', () => {
    const feed = createPriceFeed({ kind: 'candles', candles, firstClose: '22000' });
    expect(feed.start.toFixed()).toBe('20000');
    expect(take(feed, 4)).toEqual(['20000', '15000', '25000', '22000']);
  });

  it('loops without a jump: the next round continues from the last close', () => {
    const feed = createPriceFeed({ kind: 'candles', candles });
    take(feed, 8);
    expect(take(feed, 2)).toEqual(['2', '1.5']);
    const falling = createPriceFeed({
      kind: 'candles',
      candles: [{ time: 0, open: '4', high: '4', low: '2', close: '2', volume: '0' }],
    });
    expect(take(falling, 6)).toEqual(['4', '4', '2', '2', '2', '2']);
    expect(take(falling, 2)).toEqual(['1', '1']);
  });
});

describe('random walk', () => {
  it('is reproducible from its seed and stays within the volatility per step', () => {
    const a = take(createPriceFeed({ kind: 'random-walk', start: '100', seed: 7, volatilityPct: 1 }), 50);
    const b = take(createPriceFeed({ kind: 'random-walk', start: '100', seed: 7, volatilityPct: 1 }), 50);
    const c = take(createPriceFeed({ kind: 'random-walk', start: '100', seed: 8, volatilityPct: 1 }), 50);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    let previous = 100;
    for (const price of a.map(Number)) {
      expect(Math.abs(price / previous - 1)).toBeLessThanOrEqual(0.01 + 1e-12);
      previous = price;
    }
  });
});

describe('candle files', () => {
  it('reads the repository format, exponent notation included, and names the bad line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'candles-'));
    const good = join(dir, 'good.csv');
    writeFileSync(
      good,
      'time,open,high,low,close,volume\n1516424100000,5.352e-05,5.4e-05,5.348e-05,5.4e-05,100\n',
    );
    expect(loadCandleFile(good)).toEqual([
      {
        time: 1516424100000,
        open: '5.352e-05',
        high: '5.4e-05',
        low: '5.348e-05',
        close: '5.4e-05',
        volume: '100',
      },
    ]);
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'time,open,high,low,close,volume\n1,2,3,4,5,6\nx,1,1,1,1,1\n');
    expect(() => loadCandleFile(bad)).toThrow(/bad\.csv:3/);
  });
});
