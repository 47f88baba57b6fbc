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
  if (row.length < 5 || row.length > 6)
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

/**
 * `[[time, open, high, low, close, volume], …]` or `[{ time, open, high, low, close, volume }, …]`;
 * numbers or numeric strings (a JSON number is a double by the time we see it: give prices with
 * more than 15 significant digits as strings to keep them exact).
 */
export const parseJsonCandles = (text: string, source: string): CandleSeries => {
  let rows: unknown;
  try {
    rows = JSON.parse(text);
  } catch (error) {
    throw new CandleFileError(`${source}: not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(rows))
    throw new CandleFileError(
      `${source}: JSON candles must be an array of [time, open, high, low, close, volume] or of objects`,
    );
  const builder = new CandleBuilder(rows.length);
  rows.forEach((row, i) => {
    const where = `${source}: candle #${i + 1}`;
    if (Array.isArray(row)) builder.push(fromArray(row, where), where);
    else if (row !== null && typeof row === 'object') builder.push(fromObject(row as Row, where), where);
    else throw new CandleFileError(`${where}: expected an array or an object`);
  });
  try {
    return builder.finish();
  } catch (error) {
    if (error instanceof CandleFileError) throw new CandleFileError(`${source}: ${error.message}`);
    throw error;
  }
};
