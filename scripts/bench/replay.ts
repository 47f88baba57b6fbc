/*
 * Replay benchmark (DESIGN §8: ≥ 5 M candles/s per core for one coin, no I/O in the loop).
 * `npx tsx scripts/bench/replay.ts [--candles N] [--runs R]`
 *
 * Each real candle file is tiled to ≥ 10 M candles by ping-pong (forward, then the same candles
 * time-reversed with open and close swapped, then forward again …): the price path stays
 * continuous, so the tiled series trades like the real one instead of gapping at every seam.
 * The timed call is the whole pure replay (simulation + report with every fill formatted).
 */
import { parseArgs } from 'node:util';
import { allocateCandles, type CandleSeries, gridSettingsFromStrings, replayGrid } from '@gridbot/domain';
import Decimal from 'decimal.js';
import { readCandles } from '../../apps/worker/src/replay/read-candles';

const TARGET = 5_000_000;
const FILES = ['ADA-BTC-1m.csv', 'ETH-BTC-1m.csv', 'XRP-USDT-5m.csv'];
const root = new URL('../../', import.meta.url).pathname;

const { values } = parseArgs({
  options: { candles: { type: 'string', default: '10000000' }, runs: { type: 'string', default: '5' } },
});
const minCandles = Number(values.candles);
const runs = Number(values.runs);

const pingPong = (source: CandleSeries, length: number): CandleSeries => {
  const out = allocateCandles(length);
  const n = source.length;
  const step = n > 1 ? (source.time[n - 1]! - source.time[0]!) / (n - 1) : 60_000;
  for (let i = 0; i < length; i++) {
    const pass = Math.floor(i / n);
    const forward = pass % 2 === 0;
    const j = forward ? i % n : n - 1 - (i % n);
    out.time[i] = source.time[0]! + i * step;
    out.high[i] = source.high[j]!;
    out.low[i] = source.low[j]!;
    out.open[i] = forward ? source.open[j]! : source.close[j]!;
    out.close[i] = forward ? source.close[j]! : source.open[j]!;
  }
  return out;
};

const settings = gridSettingsFromStrings({
  orderSize: '100',
  stepPct: '1',
  stepIncreasePct: '0.1',
  maxTrades: 10,
});
const feePct = new Decimal('0.1');
const results: number[] = [];

for (const file of FILES) {
  const candles = pingPong(readCandles(`${root}data/candles/${file}`), minCandles);
  replayGrid({ candles, settings, feePct }); // warm-up: JIT and lazy ladders
  const rates: number[] = [];
  let fills = 0;
  for (let run = 0; run < runs; run++) {
    const started = process.hrtime.bigint();
    const report = replayGrid({ candles, settings, feePct });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    rates.push(candles.length / seconds);
    fills = report.fills.length;
  }
  rates.sort((a, b) => a - b);
  const median = rates[Math.floor(rates.length / 2)]!;
  results.push(median);
  console.log(
    `${file.padEnd(18)} ${(candles.length / 1e6).toFixed(1)} M candles, ${fills} fills: ` +
      `median ${(median / 1e6).toFixed(1)} M candles/s (best ${(rates[rates.length - 1]! / 1e6).toFixed(1)})`,
  );
}

const worst = Math.min(...results);
console.log(
  `replay: ${(worst / 1e6).toFixed(1)} M candles/s on the slowest file; target ≥ ${TARGET / 1e6} M/s → ${worst >= TARGET ? 'PASS' : 'FAIL'}`,
);
process.exitCode = worst >= TARGET ? 0 : 1;
