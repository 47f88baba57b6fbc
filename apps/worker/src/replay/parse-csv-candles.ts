import type { CandleSeries } from '@gridbot/domain';
import { CandleBuilder, CandleFileError, parsePrice, parseTime } from './candle-builder';

const REQUIRED = ['time', 'open', 'high', 'low', 'close'] as const;

const columnsOf = (header: string, lineNumber: number) => {
  const names = header.split(',').map((name) => name.trim().toLowerCase());
  const columns = REQUIRED.map((name) => names.indexOf(name));
  const missing = REQUIRED.filter((_, i) => columns[i]! < 0);
  if (missing.length > 0) {
    throw new CandleFileError(
      `line ${lineNumber}: the header must name the columns time,open,high,low,close[,volume]; missing ${missing.join(', ')}`,
    );
  }
  return { width: names.length, columns: columns as [number, number, number, number, number] };
};

/**
 * CSV with a header naming at least time,open,high,low,close (any order; extra columns such as
 * volume are ignored). Takes lines rather than one string so files beyond V8's string limit stream.
 */
export const parseCsvCandles = (lines: Iterable<string>, expectedCandles?: number): CandleSeries => {
  const builder = new CandleBuilder(expectedCandles);
  let header: ReturnType<typeof columnsOf> | null = null;
  let lineNumber = 0;
  for (const raw of lines) {
    lineNumber += 1;
    const line = raw.trim();
    if (line === '') continue;
    if (!header) {
      header = columnsOf(line, lineNumber);
      continue;
    }
    const where = `line ${lineNumber}`;
    const fields = line.split(',');
    if (fields.length < header.width) {
      throw new CandleFileError(`${where}: expected ${header.width} columns, found ${fields.length}`);
    }
    const [t, o, h, l, c] = header.columns;
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
  }
  if (!header) throw new CandleFileError('the file is empty');
  return builder.finish();
};
