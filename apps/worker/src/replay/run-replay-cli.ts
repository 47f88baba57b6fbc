import { statSync } from 'node:fs';
import { replayGrid } from '@gridbot/domain';
import { CandleFileError } from './candle-builder';
import { formatSummary } from './format-summary';
import { parseReplayArgs, type ReplayOptions, UsageError } from './parse-args';
import { createProgressBar } from './progress-bar';
import { CandlePathError, readCandles } from './read-candles';
import { USAGE } from './usage';

export type CliIo = {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Progress bars only on an interactive terminal: never in logs, pipes or tests. */
  stderrIsTty: boolean;
};

/** Inputs at least this long get a progress bar (below it each phase takes well under a second). */
const LONG_INPUT_BYTES = 32 * 1024 * 1024;
const LONG_INPUT_CANDLES = 2_000_000;

const fileSize = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    return 0; // readCandles reports the real problem
  }
};

const run = (options: ReplayOptions, io: CliIo) => {
  const long = io.stderrIsTty && fileSize(options.candlesPath) >= LONG_INPUT_BYTES;
  const readBar = long ? createProgressBar(io.stderr, 'reading ') : null;
  const candles = readCandles(options.candlesPath, readBar ? (f) => readBar.update(f) : undefined);
  readBar?.done();
  const replayBar =
    io.stderrIsTty && candles.length >= LONG_INPUT_CANDLES ? createProgressBar(io.stderr, 'replaying') : null;
  const report = replayGrid({
    candles,
    settings: options.settings,
    feePct: options.feePct,
    dryFrom: options.dryFrom,
    onProgress: replayBar ? (done, total) => replayBar.update(done / total) : undefined,
  });
  replayBar?.done();
  io.stdout(options.json ? `${JSON.stringify(report)}\n` : formatSummary(options, candles, report));
};

/** The replay CLI; returns the exit code (0 ok, 1 bad candle file, 2 bad arguments or a --candles path that is not a readable file). */
export const runReplayCli = (argv: string[], io: CliIo): number => {
  try {
    const options = parseReplayArgs(argv);
    if (!options) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    run(options, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`replay: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof CandlePathError) {
      io.stderr(`replay: ${error.message}\n`);
      return 2;
    }
    if (error instanceof CandleFileError) {
      io.stderr(`replay: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
};
