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
      'an impossible --dry-from',
      ['--candles', 'x.csv', ...settingsArgs('1', '0', 3), '--dry-from', '2021-02-30'],
      /--dry-from must be an ISO time .*'2021-02-30' is not a date: 2021-02 has no day 30/,
    ],
    [
      'a --dry-from at hour 24',
      ['--candles', 'x.csv', ...settingsArgs('1', '0', 3), '--dry-from', '2021-02-03T24:00'],
      /impossible time of day/,
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
    expect(result.stderr).toMatch(/Usage: npm run -s replay/);
  });

  it.each([
    [
      'a bad number',
      [
        [T0, 1, 1, 1, 1, 1],
        [T0 + MINUTE, 1, 1, 'abc', 1, 1],
      ],
      undefined,
      /bad-number\.csv:3: low "abc" is not a number/,
    ],
    [
      'unsorted times',
      [
        [T0 + MINUTE, 1, 1, 1, 1, 1],
        [T0, 1, 1, 1, 1, 1],
      ],
      undefined,
      /\.csv:3: time \d+ is not after the previous candle's time/,
    ],
    ['high below low', [[T0, 1, 1, 2, 1, 1]], undefined, /\.csv:2: high 1 is below low 2/],
    [
      'an open outside the range',
      [[T0, 3, 2, 1, 1, 1]],
      undefined,
      /\.csv:2: open 3 is outside \[low 1, high 2\]/,
    ],
    [
      'a short row',
      [[T0, 1, 1, 1]],
      undefined,
      /short-row\.csv:2: expected 6 fields \(time,open,high,low,close,volume\), found 4/,
    ],
    [
      'a long row',
      [
        [T0, 1, 1, 1, 1, 1],
        [T0 + MINUTE, 1, 2, 1, 2, 1, 7],
      ],
      undefined,
      /long-row\.csv:3: expected 6 fields \(time,open,high,low,close,volume\), found 7/,
    ],
    [
      'an impossible date',
      [
        ['2021-02-28T23:59:00Z', 1, 1, 1, 1, 1],
        ['2021-02-30T00:00:00Z', 1, 1, 1, 1, 1],
      ],
      undefined,
      /impossible-date\.csv:3: time "2021-02-30T00:00:00Z" is not a date: 2021-02 has no day 30/,
    ],
    [
      'a missing column',
      [[T0, 1, 1, 1, 1]],
      'time,open,high,close,volume',
      /\.csv:1: the header must name the columns .*; missing low/,
    ],
    ['a negative price', [[T0, 1, 1, -1, 1, 1]], undefined, /\.csv:2: low -1 is not a positive number/],
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
    ['a JSON array of numbers', '[1, 2, 3]', /candle #1: expected an array or an object/],
    [
      'a JSON row with seven values',
      JSON.stringify([[T0, 1, 1, 1, 1, 1, 1]]),
      /candle #1: expected \[time, open/,
    ],
    ['an empty JSON array', '[]', /holds no candles/],
  ])('rejects %s', (_, content, message) => {
    const file = join(dir, `bad-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, content);
    const result = run(['--candles', file, ...settingsArgs('1', '0', 3)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
  });

  it.each([
    ['a missing file', () => join(dir, 'nope.csv'), /cannot read --candles .*nope\.csv: no such file/],
    ['a directory', () => dir, /cannot read --candles .*: is a directory, not a candle file/],
    [
      'a path through a file',
      () => `${writeCsv('plain.csv', [[T0, 1, 1, 1, 1, 1]])}/inner.csv`,
      /cannot read --candles .*plain\.csv\/inner\.csv: a part of the path is not a directory/,
    ],
  ])('refuses %s as --candles with a clear message and exit code 2, no stack trace', (_, pathOf, message) => {
    const result = run(['--candles', pathOf(), ...settingsArgs('1', '0', 3)]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    ['an empty file', Buffer.alloc(0), /empty\.bin: the file is empty/],
    [
      'binary garbage',
      Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0xff, 0xfe, 0, 1]),
      /garbage\.bin: not a text file/,
    ],
    [
      'text that is not CSV',
      Buffer.from('hello world\nno candles here\n'),
      /the header must name the columns/,
    ],
  ])('refuses %s with exit code 1 and a message', (label, bytes, message) => {
    const file = join(
      dir,
      label === 'an empty file' ? 'empty.bin' : label === 'binary garbage' ? 'garbage.bin' : 'prose.txt',
    );
    writeFileSync(file, bytes);
    const result = run(['--candles', file, ...settingsArgs('1', '0', 3)]);
    expect([result.code, result.stdout]).toEqual([1, '']);
    expect(result.stderr).toMatch(message);
  });
});
