/*
 * Replay benchmark (docs/performance.md: ≥ 5 M candles/s per core for one coin, no I/O in the loop, on each
 * real candle file as it is, for the coarse settings and the finest valid grid).
 * `npx tsx scripts/bench/replay.ts [--runs R] [--min-ms M]`
 *
 * Every file of data/candles, untiled. Per file and settings: one cold run (the per-settings
 * ladder shape is built on first use, then cached), a warm-up, then the replay repeated until at
 * least --min-ms have passed, R times; the median rate is reported. Timed separately:
 *   sim     simulateGrid — every fill decided, counters kept (the replay itself);
 *   report  replayReport — decimal figures and every fill as text (what --json prints);
 *   floor   a bare typed-array pass over the same candles (sum of low and high), measured in the
 *           same run, so the ratio sim/floor is comparable across noisy machines.
 */
import { readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  type CandleSeries,
  type GridSettings,
  gridSettingsFromStrings,
  replayReport,
  simulateGrid,
} from '@gridbot/domain';
import Decimal from 'decimal.js';
import { readCandles } from '../../apps/worker/src/replay/read-candles';

const TARGET = 5_000_000;
const root = new URL('../../', import.meta.url).pathname;
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, 'min-ms': { type: 'string', default: '40' } },
});
const runs = Number(values.runs);
const minMs = Number(values['min-ms']);

const SETTINGS: [string, GridSettings][] = [
  [
    'coarse (S 100, s 1, d 0.1, N 10)',
    gridSettingsFromStrings({ orderSize: '100', stepPct: '1', stepIncreasePct: '0.1', maxTrades: 10 }),
  ],
  [
    'finest (S 100, s 0.5, d 0, N 300)',
    gridSettingsFromStrings({ orderSize: '100', stepPct: '0.5', stepIncreasePct: '0', maxTrades: 300 }),
  ],
];
const feePct = new Decimal('0.1');

let sink = 0;
const floorPass = (c: CandleSeries) => {
  const { low, high } = c;
  let sum = 0;
  for (let i = 0; i < c.length; i++) sum += low[i]! + high[i]!;
  sink += sum;
};

/** Median candles/s of `fn` over `runs` batches of at least minMs each. */
const rate = (candles: number, fn: () => void): number => {
  for (let i = 0; i < 20; i++) fn();
  const rates: number[] = [];
  for (let r = 0; r < runs; r++) {
    let reps = 0;
    const started = process.hrtime.bigint();
    let elapsed = 0;
    while (elapsed < minMs) {
      fn();
      reps += 1;
      elapsed = Number(process.hrtime.bigint() - started) / 1e6;
    }
    rates.push((candles * reps) / (elapsed / 1e3));
  }
  rates.sort((a, b) => a - b);
  return rates[Math.floor(rates.length / 2)]!;
};

const m = (perSecond: number) => (perSecond / 1e6).toFixed(1).padStart(7);
const files = readdirSync(`${root}data/candles`)
  .filter((f) => f.endsWith('.csv'))
  .sort();
const failures: string[] = [];

for (const [label, settings] of SETTINGS) {
  console.log(`\n${label}: M candles/s (median of ${runs}); ratio = sim / bare typed-array pass`);
  console.log(
    `${'file'.padEnd(22)} ${'candles'.padStart(7)} ${'fills'.padStart(6)} ${'cold ms'.padStart(8)} ${'sim'.padStart(7)} ${'report'.padStart(7)} ${'floor'.padStart(7)}  ratio`,
  );
  for (const file of files) {
    const candles = readCandles(`${root}data/candles/${file}`);
    const input = { candles, settings: { ...settings }, feePct };
    const coldStart = process.hrtime.bigint();
    const outcome = simulateGrid(input);
    const coldMs = Number(process.hrtime.bigint() - coldStart) / 1e6;
    const sim = rate(candles.length, () => simulateGrid(input));
    const report = rate(candles.length, () => replayReport(outcome));
    const floor = rate(candles.length, () => floorPass(candles));
    console.log(
      `${file.padEnd(22)} ${String(candles.length).padStart(7)} ${String(outcome.fillCount).padStart(6)} ${coldMs.toFixed(1).padStart(8)} ${m(sim)} ${m(report)} ${m(floor)}  ${(sim / floor).toFixed(3)}`,
    );
    if (sim < TARGET) failures.push(`${label} ${file} ${m(sim).trim()} M/s`);
  }
}

console.log(
  failures.length === 0
    ? `\nreplay: every file ≥ ${TARGET / 1e6} M candles/s for both settings → PASS`
    : `\nreplay: below ${TARGET / 1e6} M candles/s: ${failures.join('; ')} → FAIL`,
);
if (sink === 42) console.log('');
process.exitCode = failures.length === 0 ? 0 : 1;
