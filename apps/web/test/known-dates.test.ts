import { describe, expect, it } from 'vitest';
import { KNOWN_DATE_PATTERNS, knownDateFormat } from '../src/format/known-dates';

const intlDate = (locale: string) =>
  new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

describe("the app's locales' dates without Intl", () => {
  it.each(Object.keys(KNOWN_DATE_PATTERNS))(
    '%s: what Intl writes, every month, first and last days',
    (locale) => {
      const format = knownDateFormat(locale, () => intlDate(locale));
      for (let month = 0; month < 12; month += 1)
        for (const day of [1, 9, 10, 28]) {
          const date = new Date(Date.UTC(2026, month, day, 23, 59));
          expect(format.format(date)).toBe(intlDate(locale).format(date));
        }
    },
  );

  it('leaves other locales, odd years and invalid dates to Intl', () => {
    expect(knownDateFormat('de-DE', () => intlDate('de-DE')).format(new Date(Date.UTC(2026, 2, 5)))).toBe(
      intlDate('de-DE').format(new Date(Date.UTC(2026, 2, 5))),
    );
    const farAway = new Date(Date.UTC(10_000, 0, 1));
    expect(knownDateFormat('en-US', () => intlDate('en-US')).format(farAway)).toBe(
      intlDate('en-US').format(farAway),
    );
    expect(() => knownDateFormat('en-US', () => intlDate('en-US')).format(new Date(Number.NaN))).toThrow(
      RangeError,
    );
  });
});
