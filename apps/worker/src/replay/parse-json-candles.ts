import type { CandleSeries } from '@gridbot/domain';
import { CandleBuilder, CandleFileError, parsePrice, parseTime } from './candle-builder';

type Row = Record<string, unknown>;

const firstKey = (row: Row, keys: readonly string[]) => keys.find((key) => key in row);

const fromObject = (row: Row, where: string) => {
  const field = (name: string, aliases: readonly string[]) => {
    const key = firstKey(row, [name, ...aliases]);
    if (!key) throw new CandleFileError(`${where}: missing ${name}`);
    return row[key];
  };
  return {
    time: parseTime(field('time', ['t', 'timestamp', 'openTime']), where),
    open: parsePrice('open', field('open', ['o']), where),
    high: parsePrice('high', field('high', ['h']), where),
    low: parsePrice('low', field('low', ['l']), where),
    close: parsePrice('close', field('close', ['c']), where),
  };
};

const fromArray = (row: unknown[], where: string) => {
  if (row.length < 5)
    throw new CandleFileError(
      `${where}: expected [time, open, high, low, close, volume], found ${row.length} values`,
    );
  return {
    time: parseTime(row[0], where),
    open: parsePrice('open', row[1], where),
    high: parsePrice('high', row[2], where),
    low: parsePrice('low', row[3], where),
    close: parsePrice('close', row[4], where),
  };
};

/** `[[time, open, high, low, close, volume], …]` or `[{ time, open, high, low, close, volume }, …]`; numbers or numeric strings. */
export const parseJsonCandles = (text: string): CandleSeries => {
  let rows: unknown;
  try {
    rows = JSON.parse(text);
  } catch (error) {
    throw new CandleFileError(`not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(rows)) throw new CandleFileError('JSON candles must be an array');
  const builder = new CandleBuilder(rows.length);
  rows.forEach((row, i) => {
    const where = `candle #${i + 1}`;
    if (Array.isArray(row)) builder.push(fromArray(row, where), where);
    else if (row !== null && typeof row === 'object') builder.push(fromObject(row as Row, where), where);
    else throw new CandleFileError(`${where}: expected an array or an object`);
  });
  return builder.finish();
};
