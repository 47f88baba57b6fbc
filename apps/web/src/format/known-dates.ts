/**
 * `day month year` in the app's own locales (src/i18n/language.ts) without Intl: a page's first
 * `Intl.DateTimeFormat` loads the locale's date data, ~0.1–0.2 s of a phone's first render, and the
 * first screen shows one such date (docs/performance.md#web). test/known-dates.test.ts checks every
 * month against Intl.
 */
type DayOfYear = { year: number; month: number; day: number };

const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const RU_MONTHS = [
  'янв.',
  'февр.',
  'мар.',
  'апр.',
  'мая',
  'июн.',
  'июл.',
  'авг.',
  'сент.',
  'окт.',
  'нояб.',
  'дек.',
];

/** What `Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric' })` writes. */
export const KNOWN_DATE_PATTERNS: Readonly<Record<string, (date: DayOfYear) => string>> = {
  'en-US': ({ year, month, day }) => `${EN_MONTHS[month]} ${day}, ${year}`,
  'ru-RU': ({ year, month, day }) => `${day} ${RU_MONTHS[month]} ${year} г.`,
  'zh-CN': ({ year, month, day }) => `${year}年${month + 1}月${day}日`,
};

type DateFormat = { format: (date: Date) => string };

/**
 * The UTC calendar date of `date` by the table for a known locale and a four-digit year; anything
 * else (another locale, an odd year, an invalid date) by the Intl format `fallback` builds.
 */
export const knownDateFormat = (locale: string, fallback: () => DateFormat): DateFormat => {
  const pattern = KNOWN_DATE_PATTERNS[locale];
  let intl: DateFormat | undefined;
  return {
    format: (date) => {
      const year = date.getUTCFullYear();
      if (pattern && year >= 1000 && year <= 9999)
        return pattern({ year, month: date.getUTCMonth(), day: date.getUTCDate() });
      intl ??= fallback();
      return intl.format(date);
    },
  };
};
