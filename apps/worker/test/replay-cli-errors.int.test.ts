import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dir, MINUTE, run, settingsArgs, T0, writeCsv } from './support/replay-cli';

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('replay CLI errors', () => {
  it.each([
    ['missing --candles', ['--order-size', '10'], /missing --candles/],
    [
      'a non-numeric step',
      ['--candles', 'x.csv', ...settingsArgs('abc', '0', 3)],
      /--step must be a non-negative decimal number, got 'abc'/,
    ],
    [
      'a step below the product minimum',
      ['--candles', 'x.csv', ...settingsArgs('0.2', '0', 3)],
      /step must be between 0.5 and 10 %/,
    ],
    [
      'max trades 0',
      ['--candles', 'x.csv', ...settingsArgs('1', '0', 0)],
      /max trades must be an integer between 1 and 300/,
    ],
    ['an unknown option', ['--candles', 'x.csv', '--speed', '3'], /Unknown option '--speed'/],
    [
      'a bad --dry-from',
      ['--candles', 'x.csv', ...settingsArgs('1', '0', 3), '--dry-from', 'yesterday'],
      /--dry-from must be an ISO time/,
    ],
    [
      'a fee of 100 %',
      ['--candles', 'x.csv', ...settingsArgs('1', '0', 3), '--fee', '100'],
      /--fee must be below 100 %/,
    ],
  ])('rejects %s with exit code 2 and the usage', (_, args, message) => {
    const result = run(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/Usage: npm run replay/);
  });

  it.each([
    [
      'a bad number',
      [
        [T0, 1, 1, 1, 1, 1],
        [T0 + MINUTE, 1, 1, 'abc', 1, 1],
      ],
      undefined,
      /bad-number\.csv: line 3: low "abc" is not a number/,
    ],
    [
      'unsorted times',
      [
        [T0 + MINUTE, 1, 1, 1, 1, 1],
        [T0, 1, 1, 1, 1, 1],
      ],
      undefined,
      /line 3: time \d+ is not after the previous candle's time/,
    ],
    ['high below low', [[T0, 1, 1, 2, 1, 1]], undefined, /line 2: high 1 is below low 2/],
    [
      'an open outside the range',
      [[T0, 3, 2, 1, 1, 1]],
      undefined,
      /line 2: open 3 is outside \[low 1, high 2\]/,
    ],
    ['a short row', [[T0, 1, 1, 1]], undefined, /line 2: expected 6 columns, found 4/],
    [
      'a missing column',
      [[T0, 1, 1, 1, 1]],
      'time,open,high,close,volume',
      /line 1: the header must name the columns .*; missing low/,
    ],
    ['a negative price', [[T0, 1, 1, -1, 1, 1]], undefined, /line 2: low -1 is not a positive number/],
    ['no candles', [], undefined, /holds no candles/],
  ])('rejects a file with %s (exit 1, naming the line)', (label, rows, header, message) => {
    const file = writeCsv(
      `${label.replaceAll(' ', '-').replace(/^a-/, '')}.csv`,
      rows as (string | number)[][],
      header,
    );
    const result = run(['--candles', file, ...settingsArgs('1', '0', 3)]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
  });

  it.each([
    ['invalid JSON', '[[1,2', /not valid JSON/],
    [
      'a JSON candle without close',
      JSON.stringify([{ time: T0, open: 1, high: 1, low: 1 }]),
      /candle #1: missing close/,
    ],
    ['a JSON object instead of an array', '{"candles": []}', /JSON candles must be an array/],
  ])('rejects %s', (_, content, message) => {
    const file = join(dir, `bad-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, content);
    const result = run(['--candles', file, ...settingsArgs('1', '0', 3)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
  });

  it('names a file it cannot read', () => {
    const result = run(['--candles', join(dir, 'nope.csv'), ...settingsArgs('1', '0', 3)]);
    expect([result.code, result.stderr]).toEqual([
      1,
      expect.stringMatching(/cannot read .*nope\.csv: ENOENT/),
    ]);
  });
});
