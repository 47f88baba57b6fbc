/**
 * Reads a CSV file as a spreadsheet does (RFC 4180): fields split on commas, a quoted field may hold
 * commas, CR, LF and doubled quotes. Every record must end with CRLF; the BOM must come first.
 * Returns the header names and each record as an object keyed by them (fields as written, quotes
 * removed), plus the raw fields.
 */
export const parseCsv = (text: string) => {
  if (!text.startsWith('\uFEFF')) throw new Error('no byte order mark');
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = 1;
  while (i < text.length) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else field += char;
      i += 1;
      continue;
    }
    if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else if (char === '\n' || char === '\r' || char === '"') {
      throw new Error(`bare ${JSON.stringify(char)} at ${i}`);
    } else field += char;
    i += 1;
  }
  if (quoted || field !== '' || record.length > 0) throw new Error('the last record does not end with CRLF');
  const [header = [], ...rows] = records;
  for (const row of rows)
    if (row.length !== header.length) throw new Error(`a record of ${row.length} fields`);
  return {
    header,
    rows: rows.map((row) => Object.fromEntries(header.map((name, k) => [name, row[k]!]))),
  };
};
