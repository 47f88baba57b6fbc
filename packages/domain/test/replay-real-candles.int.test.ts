import { describe, expect, it } from 'vitest';
import { replayGrid } from '../src/replay/report';
import { d, settingsOf } from './support/build';
import { readRepoCandles } from './support/read-csv-candles';
import { referenceReplay } from './support/reference-replay';

// Real Binance candles (data/candles): the fast replay must match the naive plan()-driven one exactly.
describe.each([
  ['ADA-BTC-1m.csv', settingsOf('100', '1', '0.1', 10), null],
  ['XLM-BTC-1m.csv', settingsOf('100', '0.5', '0', 20), new Date('2018-01-25T00:00:00Z')],
  ['XRP-USDT-5m.csv', settingsOf('50', '1.5', '0.25', 6), null],
  ['ETH-BTC-1m.csv', settingsOf('10', '2', '0.5', 8), null],
] as const)('%s', (file, settings, dryFrom) => {
  it('agrees with the reference replay to the last digit', () => {
    const candles = readRepoCandles(file);
    const fast = replayGrid({ candles, settings, feePct: d('0.1'), dryFrom });
    expect(fast.fills.length).toBeGreaterThan(10);
    expect(fast).toEqual(referenceReplay(candles, settings, d('0.1'), dryFrom));
  });
});
