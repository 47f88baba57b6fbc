import { readFileSync } from 'node:fs';
import type { CandleSeries } from '@gridbot/domain';
import { CandleFileError } from './candle-builder';
import { parseCsvCandles } from './parse-csv-candles';
import { parseJsonCandles } from './parse-json-candles';

/** Reads a CSV or JSON candle file (by its first character, so the extension does not matter). */
export const readCandles = (path: string, onProgress?: (fraction: number) => void): CandleSeries => {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CandleFileError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const first = text.trimStart()[0];
  try {
    return first === '[' ? parseJsonCandles(text) : parseCsvCandles(text, onProgress);
  } catch (error) {
    if (error instanceof CandleFileError) throw new CandleFileError(`${path}: ${error.message}`);
    throw error;
  }
};
