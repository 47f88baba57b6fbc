import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CSV_BOM, type CsvColumn, csvCell, csvChunks, csvLine, textCell } from '../../src/export/csv';

/** What a spreadsheet reads back from a quoted field. */
const unquote = (cell: string) => cell.slice(1, -1).replaceAll('""', '"');

describe('CSV cells (docs/product.md#csv-rules)', () => {
  it.each([
    ['plain', '"plain"'],
    ['a, b', '"a, b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\r\nlines', '"two\r\nlines"'],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['+7 999', `"'+7 999"`],
    ['-2+3', `"'-2+3"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\tcmd', `"'\tcmd"`],
    ['\rcmd', `"'\rcmd"`],
    ['Сделка 买入', '"Сделка 买入"'],
    ['', '""'],
  ])('text %j is written %j', (value, cell) => {
    expect(csvCell('text', value)).toBe(cell);
  });

  it.each([
    ['number', '-12.5', '-12.5'],
    ['number', '0.000001', '0.000001'],
    ['number', '123456789012345678.123456789012345678', '123456789012345678.123456789012345678'],
    ['number', 42, '42'],
    ['number', -3, '-3'],
    ['instant', '2026-11-28T09:15:00.123Z', '2026-11-28T09:15:00.123Z'],
    ['instant', '2026-11-28', '2026-11-28'],
  ] as const)('a %s %j stays as it is: %j', (kind, value, cell) => {
    expect(csvCell(kind, value)).toBe(cell);
  });

  it.each([
    ['number', '-1e5'],
    ['number', '=1+1'],
    ['number', '1,000.5'],
    ['instant', '2026-11-28T09:15:00+03:00'],
  ] as const)('a %s in another form (%j) is written as neutralized text', (kind, value) => {
    const cell = csvCell(kind, value);
    expect(cell.startsWith('"')).toBe(true);
    expect(unquote(cell).replace(/^'/, '')).toBe(value);
  });

  it('leaves a missing value empty', () => {
    expect(csvCell('text', null)).toBe('');
    expect(csvCell('number', undefined)).toBe('');
  });

  it('reads back every text as written, with the apostrophe only before a formula start', () => {
    const text = fc
      .tuple(fc.constantFrom('', '=', '+', '-', '@', '\t', '\r', '"', ',', '\n', 'Ж', '买'), fc.string())
      .map(([start, rest]) => start + rest);
    fc.assert(
      fc.property(text, (value) => {
        const cell = textCell(value);
        expect(cell.startsWith('"') && cell.endsWith('"')).toBe(true);
        // Inside, every quote is doubled: no field can end early.
        expect(cell.slice(1, -1).replaceAll('""', '')).not.toContain('"');
        const formula = /^[=+\-@\t\r]/.test(value);
        expect(unquote(cell)).toBe(formula ? `'${value}` : value);
      }),
    );
  });

  it('never touches a decimal: negative numbers stay numbers', () => {
    const decimal = fc
      .tuple(
        fc.boolean(),
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.option(fc.stringMatching(/^\d{1,18}$/)),
      )
      .map(([negative, int, frac]) => `${negative ? '-' : ''}${int}${frac ? `.${frac}` : ''}`);
    fc.assert(
      fc.property(decimal, (value) => {
        expect(csvCell('number', value)).toBe(value);
      }),
    );
  });
});

describe('CSV files', () => {
  type Row = { name: string; amount: string };
  const columns: CsvColumn<Row>[] = [
    { name: 'name', kind: 'text', value: (r) => r.name },
    { name: 'amount', kind: 'number', value: (r) => r.amount },
  ];

  it('start with the BOM and the header, and end every line with CRLF', async () => {
    async function* pages() {
      yield [{ name: 'a', amount: '1.5' }];
      yield [];
      yield [
        { name: 'b,c', amount: '-2' },
        { name: '-b', amount: '0' },
      ];
    }
    let text = '';
    for await (const chunk of csvChunks(columns, pages())) text += chunk;
    expect(text).toBe(`${CSV_BOM}name,amount\r\n"a",1.5\r\n"b,c",-2\r\n"'-b",0\r\n`);
    expect(csvLine(columns, { name: 'x', amount: '3' })).toBe('"x",3\r\n');
  });
});
