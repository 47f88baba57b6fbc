import fc from 'fast-check';

/**
 * A string of a million characters that prints as `HugeString(x × 1000000)` in fast-check's
 * reports (a counterexample must stay readable) and renders as itself in JSON and URLs.
 */
export class HugeString {
  constructor(
    readonly char: string,
    readonly length: number,
  ) {}
  toString() {
    return this.char.repeat(this.length);
  }
  toJSON() {
    return this.toString();
  }
  [fc.toStringMethod]() {
    return `HugeString(${JSON.stringify(this.char)} × ${this.length})`;
  }
}

export const ONE_MB = 1_048_576;

/** Numbers written as strings the way a client could send them (and JSON cannot carry). */
const numericStrings = [
  '1e309',
  '-1e309',
  '1e-309',
  '-0',
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '-11',
  '-0.000001',
  '0',
  '0.0000001',
  '1.1234567',
  '11.0000000000000000001',
  '1e3',
  '0x10',
  '0b1',
  '1_000',
  ' 12 ',
  '12abc',
  '9007199254740993',
  '99999999999999999999999',
  '2147483648',
  '٣',
  '１２',
];

/** Text that breaks naive handling: direction marks, zero-width, emoji, NUL, case folding. */
const unicodeStrings = [
  '',
  ' ',
  '\u202Eevil\u202C',
  '\u200B',
  'BTC\u200B',
  '\u200F\u200E',
  '😀',
  '👨‍👩‍👧‍👦',
  'a\u0000b',
  '\u0000',
  '\uFEFF',
  '\uD800',
  'ＢＴＣ',
  'ß',
  'ı',
  'İ',
  'ﬀ',
  'Ω̈',
  'Tр7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  "' OR 1=1 --",
  '../../etc/passwd',
  '%00',
  '%E0%A4%A',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '$where',
  'today\n',
];

/** Days and months at the edges of calendars and of the database's range. */
const edgeDates = [
  '0000-01-01',
  '0000-01',
  '0001-01-01',
  '1969-12-31',
  '1970-01',
  '2024-02-30',
  '2023-02-29',
  '9999-12-31',
  '9999-12',
  '+275760-09-13',
  '2025-1-1',
  '2025-06-01T00:00:00Z',
];

const wrongTypes: unknown[] = [null, true, false, 0, -1, -0, 1.5, 1e308, [], [1, 2], {}, { a: 1 }, [[[]]]];

/** One hostile value for any field (query, params, headers or a JSON body). */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(...numericStrings), weight: 4 },
  { arbitrary: fc.constantFrom(...unicodeStrings), weight: 4 },
  { arbitrary: fc.constantFrom(...wrongTypes), weight: 3 },
  { arbitrary: fc.constantFrom(...edgeDates), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 12 }), weight: 2 },
  { arbitrary: fc.integer().map((n) => -Math.abs(n) - 1), weight: 1 },
  {
    arbitrary: fc.constantFrom(
      new HugeString('9', ONE_MB),
      new HugeString('x', ONE_MB),
      new HugeString('€', 4096),
    ),
    weight: 1,
  },
);

/** Keys no request should be able to smuggle into an object (prototype pollution, shadowing). */
export const hostileKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'extra',
  'id',
  'userId',
  'isAdmin',
  '',
  'a'.repeat(300),
);
