import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { ReplayReport } from '@gridbot/domain';
import Decimal from 'decimal.js';
import { afterAll, describe, expect, it } from 'vitest';
import { dir, replayJson, root, settingsArgs, writeCsv } from './support/replay-cli';

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const Wide = Decimal.clone({ precision: 200 });

describe('replay CLI reads prices exactly', () => {
  // Entry 1, s = 1, d = 0: the 4th lot is bought at 0.99³ = 0.970299 exactly, its TP at 0.97999199.
  it('does not fill a level that the low misses by 1e-21 (a 22-digit price a double rounds onto it)', () => {
    const level = new Wide('0.970299');
    const low = level.plus('1e-21').toFixed(); // 0.970299000000000000001: the double is 0.970299
    expect(Number(low)).toBe(0.970299);
    const rows = (lowText: string) => [
      ['2024-01-01T00:00:00Z', 1, 1, 1, 1, 1],
      ['2024-01-01T00:01:00Z', 1, 1, lowText, 1, 1],
    ];
    const missed = replayJson(writeCsv('miss.csv', rows(low)), settingsArgs('1', '0', 10));
    expect(missed.buys).toBe(3);
    const hit = replayJson(writeCsv('hit.csv', rows('0.970299')), settingsArgs('1', '0', 10));
    expect(hit.buys).toBe(4);
  });

  it('reports the last close with every digit of the file', () => {
    const close = '1.00000000000000000001';
    const report = replayJson(
      writeCsv('close.csv', [['2024-01-01T00:00:00Z', 1, close, 1, close, 1]]),
      settingsArgs('1', '0', 10),
    );
    // One lot of 100 USDT at 1 with 0.1 % fee: 100 × close − 100.1.
    expect(report.unrealizedPnl).toBe(new Wide(100).times(close).minus('100.1').toFixed());
  });
});

describe('replay CLI times are UTC whatever the host zone', () => {
  const cliInNewYork = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'apps/worker/src/replay.ts', ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, TZ: 'America/New_York' },
    });

  it('reads zoneless times in the file and --dry-from as UTC', () => {
    // Entry at 00:00, TP 1.01 reached at 00:02; dry from 00:01 UTC: no re-entry at 00:03.
    const file = writeCsv('zoneless.csv', [
      ['2024-01-01 00:00', 1, 1, 1, 1, 1],
      ['2024-01-01 00:01', 1, 1, 1, 1, 1],
      ['2024-01-01 00:02', 1, '1.01', 1, '1.01', 1],
      ['2024-01-01 00:03', 1, 1, 1, 1, 1],
    ]);
    const result = cliInNewYork([
      '--candles',
      file,
      ...settingsArgs('1', '0', 10),
      '--dry-from',
      '2024-01-01T00:01',
      '--json',
    ]);
    expect(result.stderr).toBe('');
    const report = JSON.parse(result.stdout) as ReplayReport;
    expect(report.fills.map((f) => [f.time, f.role])).toEqual([
      ['2024-01-01T00:00:00.000Z', 'entry'],
      ['2024-01-01T00:02:00.000Z', 'take_profit'],
    ]);
  });
});
