import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReplayReport } from '@gridbot/domain';
import Decimal from 'decimal.js';
import { expect } from 'vitest';
import { runReplayCli } from '../../src/replay/run-replay-cli';

export const root = new URL('../../../../', import.meta.url).pathname;
export const candleFile = (name: string) => join(root, 'data/candles', name);
export const dir = mkdtempSync(join(tmpdir(), 'replay-cli-'));
export const T0 = Date.UTC(2024, 0, 1);
export const MINUTE = 60_000;

export const writeCsv = (
  name: string,
  rows: (string | number)[][],
  header = 'time,open,high,low,close,volume',
) => {
  const path = join(dir, name);
  writeFileSync(path, `${header}\n${rows.map((row) => row.join(',')).join('\n')}\n`);
  return path;
};
/** [open, high, low, close] rows one minute apart from T0. */
export const series = (name: string, ohlc: number[][]) =>
  writeCsv(
    name,
    ohlc.map((c, i) => [T0 + i * MINUTE, ...c, 1]),
  );

export const run = (args: string[]) => {
  let stdout = '';
  let stderr = '';
  const code = runReplayCli(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    stderrIsTty: false,
  });
  return { code, stdout, stderr };
};
export const settingsArgs = (s: string, inc: string, n: number, size = '100') => [
  '--order-size',
  size,
  '--step',
  s,
  '--step-increase',
  inc,
  '--max-trades',
  String(n),
];
export const replayJson = (file: string, args: string[]): ReplayReport => {
  const result = run(['--candles', file, ...args, '--json']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as ReplayReport;
};
export const near = (actual: string, expected: string) =>
  expect(
    new Decimal(actual).minus(expected).abs().lte(new Decimal(expected).abs().times('1e-12').plus('1e-15')),
  ).toBe(true);
export const compact = (report: ReplayReport) =>
  report.fills.map((f) => [(Date.parse(f.time) - T0) / MINUTE, f.role, f.price, f.lotSeq]);
