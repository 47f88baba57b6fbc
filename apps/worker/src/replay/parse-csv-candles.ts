import type { CandleSeries } from '@gridbot/domain';
import { CandleBuilder, CandleFileError, parsePrice, parseTime } from './candle-builder';

const REQUIRED = ['time', 'open', 'high', 'low', 'close'] as const;

const columnsOf = (header: string, where: string) => {
  const names = header.split(',').map((name) => name.trim().toLowerCase());
  const columns = REQUIRED.map((name) => names.indexOf(name));
  const missing = REQUIRED.filter((_, i) => columns[i]! < 0);
  if (missing.length > 0) {
    throw new CandleFileError(
      `${where}: the header must name the columns time,open,high,low,close[,volume]; missing ${missing.join(', ')}`,
    );
  }
  return { names, columns: columns as [number, number, number, number, number] };
};

/**
 * CSV with a header naming at least time,open,high,low,close (any order; extra columns such as
 * volume are ignored). Every row must have exactly the header's fields: a row with more or fewer
 * is refused, since its values could belong to other columns. Takes lines rather than one
 * string so files beyond V8's string limit stream. `source` names the file in messages
 * (`file:line: problem`).
 */
export const parseCsvCandles = (
  lines: Iterable<string>,
  source: string,
  expectedCandles?: number,
): CandleSeries => {
  const builder = new CandleBuilder(expectedCandles);
  let header: ReturnType<typeof columnsOf> | null = null;
  let lineNumber = 0;
  for (const raw of lines) {
    lineNumber += 1;
    const line = raw.trim();
    if (line === '') continue;
    const where = `${source}:${lineNumber}`;
    if (!header) {
      header = columnsOf(line, where);
      continue;
    }
    const fields = line.split(',');
    if (fields.length !== header.names.length) {
      throw new CandleFileError(
        `${where}: expected ${header.names.length} fields (${header.names.join(',')}), found ${fields.length}`,
      );
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
  if (!header) throw new CandleFileError(`${source}: the file is empty`);
  try {
    return builder.finish();
  } catch (error) {
    if (error instanceof CandleFileError) throw new CandleFileError(`${source}: ${error.message}`);
    throw error;
  }
};
