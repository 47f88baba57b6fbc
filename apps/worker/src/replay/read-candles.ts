import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { CandleSeries } from '@gridbot/domain';
import { CandleFileError } from './candle-builder';
import { parseCsvCandles } from './parse-csv-candles';
import { parseJsonCandles } from './parse-json-candles';

const CHUNK_BYTES = 1 << 20;
/** The recorded CSVs average ~65 bytes a line: a first guess for the typed arrays, which grow if needed. */
const BYTES_PER_CSV_LINE = 60;

/** The file's lines, read in chunks (constant memory apart from the candles themselves). */
function* fileLines(fd: number, size: number, onProgress?: (fraction: number) => void): Generator<string> {
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const decoder = new StringDecoder('utf8');
  let position = 0;
  let carry = '';
  for (;;) {
    const read = readSync(fd, buffer, 0, CHUNK_BYTES, position);
    if (read === 0) break;
    position += read;
    const lines = (carry + decoder.write(buffer.subarray(0, read))).split('\n');
    carry = lines.pop()!;
    yield* lines;
    onProgress?.(size > 0 ? position / size : 1);
  }
  const rest = carry + decoder.end();
  if (rest !== '') yield rest;
}

const firstCharacter = (fd: number): string | undefined => {
  const head = Buffer.alloc(4096);
  const read = readSync(fd, head, 0, head.length, 0);
  return head.subarray(0, read).toString('utf8').trimStart()[0];
};

const parse = (path: string, onProgress?: (fraction: number) => void): CandleSeries => {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new CandleFileError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  try {
    const first = firstCharacter(fd);
    // JSON is parsed whole (JSON.parse needs one string); CSV streams.
    if (first === '[' || first === '{') return parseJsonCandles(readFileSync(fd, 'utf8'));
    const { size } = fstatSync(fd);
    return parseCsvCandles(fileLines(fd, size, onProgress), Math.ceil(size / BYTES_PER_CSV_LINE));
  } finally {
    closeSync(fd);
  }
};

/** Reads a CSV or JSON candle file (by its first character, so the extension does not matter). */
export const readCandles = (path: string, onProgress?: (fraction: number) => void): CandleSeries => {
  try {
    return parse(path, onProgress);
  } catch (error) {
    if (error instanceof CandleFileError && !error.message.startsWith('cannot read')) {
      throw new CandleFileError(`${path}: ${error.message}`);
    }
    throw error;
  }
};
