/**
 * CSV as an accountant's spreadsheet reads it (docs/product.md#csv-rules): RFC 4180 (comma
 * separated, CRLF line ends, a field with a comma, quote or line break in double quotes, quotes
 * doubled), UTF-8 with a byte order mark so Excel reads ru and cn text, one header row. Each column
 * has a kind: numbers and instants are written as the services give them (decimal strings with
 * '.', no thousands separator, no rounding; ISO 8601 in UTC), text is always quoted and, when it
 * starts like a formula (= + - @, tab, carriage return), prefixed with an apostrophe as OWASP's
 * CSV injection advice says, so a spreadsheet shows it instead of running it. A negative number
 * stays a number: only text is prefixed.
 */

export type CsvKind = 'text' | 'number' | 'instant';

export type CsvColumn<Row> = {
  /** The header: snake_case English, stable for scripts. */
  name: string;
  kind: CsvKind;
  value: (row: Row) => string | number | null | undefined;
};

export const CSV_BOM = '\uFEFF';
export const CSV_EOL = '\r\n';

const NUMBER = /^-?\d+(\.\d+)?$/;
/** ISO 8601 in UTC as `Date.toISOString` writes it, or a UTC day. */
const INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z)?$/;
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell: neutralized if it starts like a formula, then quoted with its quotes doubled. */
export const textCell = (value: string): string => {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
};

/**
 * One cell. A number or instant that is not in its exact form is written as text (quoted and
 * neutralized): a figure is never reformatted, and nothing unexpected reaches a cell unquoted.
 */
export const csvCell = (kind: CsvKind, value: string | number | null | undefined): string => {
  if (value === null || value === undefined) return '';
  const text = String(value);
  if (kind === 'number' && NUMBER.test(text)) return text;
  if (kind === 'instant' && INSTANT.test(text)) return text;
  return textCell(text);
};

/** The header row: names are plain snake_case words, written as they are. */
export const csvHeader = <Row>(columns: readonly CsvColumn<Row>[]): string =>
  columns.map((column) => column.name).join(',') + CSV_EOL;

export const csvLine = <Row>(columns: readonly CsvColumn<Row>[], row: Row): string =>
  columns.map((column) => csvCell(column.kind, column.value(row))).join(',') + CSV_EOL;

/**
 * The whole file as chunks: the BOM and header first, then one chunk per batch of rows, so a
 * stream sends each page of rows as it is read and holds no more than one page.
 */
export async function* csvChunks<Row>(
  columns: readonly CsvColumn<Row>[],
  batches: AsyncIterable<readonly Row[]>,
): AsyncGenerator<string> {
  yield CSV_BOM + csvHeader(columns);
  for await (const rows of batches) {
    if (rows.length > 0) yield rows.map((row) => csvLine(columns, row)).join('');
  }
}
