import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { CandleSeries } from '@gridbot/domain';
import { CandleFileError } from './candle-builder';
import { parseCsvCandles } from './parse-csv-candles';
import { parseJsonCandles } from './parse-json-candles';

/** --candles names something that is not a readable file (exit code 2, like any bad argument). */
export class CandlePathError extends Error {
  override name = 'CandlePathError';
}

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

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory, not a candle file',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
};

const pathError = (path: string, error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  return new CandlePathError(
    `cannot read --candles ${path}: ${REASONS[code] ?? code ?? (error as Error).message}`,
  );
};

const head = (fd: number, path: string): Buffer => {
  const bytes = Buffer.alloc(4096);
  let read: number;
  try {
    read = readSync(fd, bytes, 0, bytes.length, 0);
  } catch (error) {
    throw pathError(path, error);
  }
  return bytes.subarray(0, read);
};

const parse = (path: string, onProgress?: (fraction: number) => void): CandleSeries => {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw pathError(path, error);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw pathError(path, { code: 'EISDIR' });
    if (!stat.isFile()) throw new CandlePathError(`cannot read --candles ${path}: not a regular file`);
    const start = head(fd, path);
    if (start.length === 0) throw new CandleFileError(`${path}: the file is empty`);
    // Text candle files never hold NUL bytes; anything that does is binary (a zip, a database…).
    if (start.includes(0))
      throw new CandleFileError(`${path}: not a text file (expected CSV or JSON candles)`);
    const first = start.toString('utf8').trimStart()[0];
    // JSON is parsed whole (JSON.parse needs one string); CSV streams.
    if (first === '[' || first === '{') return parseJsonCandles(readFileSync(fd, 'utf8'), path);
    return parseCsvCandles(
      fileLines(fd, stat.size, onProgress),
      path,
      Math.ceil(stat.size / BYTES_PER_CSV_LINE),
    );
  } finally {
    closeSync(fd);
  }
};

/** Reads a CSV or JSON candle file (by its first character, so the extension does not matter). */
export const readCandles = (path: string, onProgress?: (fraction: number) => void): CandleSeries =>
  parse(path, onProgress);
