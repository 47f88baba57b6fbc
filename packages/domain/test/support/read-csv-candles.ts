import { readFileSync } from 'node:fs';
import { allocateCandles, type CandleSeries } from '../../src/replay/candles';

/** The repository's recorded candles (data/candles, `time,open,high,low,close,volume`), for integration tests. */
export const readRepoCandles = (name: string): CandleSeries => {
  const url = new URL(`../../../../data/candles/${name}`, import.meta.url);
  const rows = readFileSync(url, 'utf8').trim().split('\n').slice(1);
  const series = allocateCandles(rows.length);
  rows.forEach((row, i) => {
    const [time, open, high, low, close] = row.split(',').map(Number) as [
      number,
      number,
      number,
      number,
      number,
    ];
    series.time[i] = time;
    series.open[i] = open;
    series.high[i] = high;
    series.low[i] = low;
    series.close[i] = close;
  });
  return series;
};
