import type { CandleSeries } from '@gridbot/domain';
import { CandleBuilder, CandleFileError, parsePrice, parseTime } from './candle-builder';

const REQUIRED = ['time', 'open', 'high', 'low', 'close'] as const;

/** CSV with a header naming at least time,open,high,low,close (any order; extra columns such as volume ignored). */
export const parseCsvCandles = (text: string, onProgress?: (fraction: number) => void): CandleSeries => {
  const lines = text.split('\n');
  let index = lines.findIndex((line) => line.trim() !== '');
  if (index < 0) throw new CandleFileError('the file is empty');
  const header = lines[index]!.trim()
    .split(',')
    .map((name) => name.trim().toLowerCase());
  const columns = REQUIRED.map((name) => header.indexOf(name));
  const missing = REQUIRED.filter((_, i) => columns[i]! < 0);
  if (missing.length > 0) {
    throw new CandleFileError(
      `line ${index + 1}: the header must name the columns time,open,high,low,close[,volume]; missing ${missing.join(', ')}`,
    );
  }
  const [t, o, h, l, c] = columns as [number, number, number, number, number];
  const builder = new CandleBuilder(lines.length);
  for (index += 1; index < lines.length; index++) {
    const line = lines[index]!.trim();
    if (line === '') continue;
    const where = `line ${index + 1}`;
    const fields = line.split(',');
    if (fields.length < header.length) {
      throw new CandleFileError(`${where}: expected ${header.length} columns, found ${fields.length}`);
    }
    builder.push(
      {
        time: parseTime(fields[t], where),
        open: parsePrice('open', fields[o], where),
        high: parsePrice('high', fields[h], where),
        low: parsePrice('low', fields[l], where),
        close: parsePrice('close', fields[c], where),
      },
      where,
    );
    if (onProgress && (index & 0x3ffff) === 0) onProgress(index / lines.length);
  }
  return builder.finish();
};
