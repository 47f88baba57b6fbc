import { useTranslation } from 'react-i18next';
import { localeOf } from '../i18n/language';
import {
  localizeDecimal,
  type NumberSymbols,
  roundDecimal,
  type StepRounding,
  toStep,
  trimDecimal,
} from './decimal';
import { knownDateFormat } from './known-dates';

/**
 * The app's own locales' symbols (src/i18n/language.ts), as Intl gives them (test/decimal.test.ts):
 * asking Intl costs ~50 ms of a phone's first render, its first use of the locale's number data.
 */
export const KNOWN_NUMBER_SYMBOLS: Readonly<Record<string, NumberSymbols>> = {
  'en-US': { group: ',', decimal: '.' },
  'ru-RU': { group: '\u00a0', decimal: ',' },
  'zh-CN': { group: ',', decimal: '.' },
};

export const symbolsOf = (locale: string): NumberSymbols => {
  const known = KNOWN_NUMBER_SYMBOLS[locale];
  if (known) return known;
  const parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
  const group = parts.find((part) => part.type === 'group')?.value ?? ',';
  const decimal = parts.find((part) => part.type === 'decimal')?.value ?? '.';
  return { group, decimal };
};

const DAY_MS = 86_400_000;

const capitalized = (text: string, locale: string) =>
  text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);

/** The largest unit that keeps the amount readable; seconds are negative for the past. */
const relativeUnit = (seconds: number): [number, Intl.RelativeTimeFormatUnit] => {
  const abs = Math.abs(seconds);
  if (abs < 45) return [0, 'second'];
  if (abs < 3600) return [Math.round(seconds / 60), 'minute'];
  if (abs < 86_400) return [Math.round(seconds / 3600), 'hour'];
  return [Math.round(seconds / 86_400), 'day'];
};

export type Formatters = ReturnType<typeof createFormatters>;

/** A value built on first use: an `Intl` formatter costs milliseconds to construct on a phone. */
const onFirstUse = <T>(build: () => T): (() => T) => {
  let value: T | undefined;
  return () => {
    value ??= build();
    return value;
  };
};

export const createFormatters = (locale: string) => {
  const numberSymbols = onFirstUse(() => symbolsOf(locale));
  const dateFormat = onFirstUse(() =>
    knownDateFormat(
      locale,
      () =>
        new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }),
    ),
  );
  const dateTimeFormat = onFirstUse(
    () =>
      new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }),
  );
  const shortDateFormat = onFirstUse(
    () => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }),
  );
  const monthFormat = onFirstUse(
    () => new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }),
  );
  const timeFormat = onFirstUse(
    () => new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }),
  );
  const utcDayFormat = onFirstUse(
    () =>
      new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'long', timeZone: 'UTC' }),
  );
  const relativeFormat = onFirstUse(() => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }));
  const compactFormat = onFirstUse(
    () => new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 2 }),
  );
  /** A number with its own precision, trailing zeros trimmed (a percentage in a sentence, a figure without a market). */
  const amount = (value: string, maxDigits = 8) =>
    localizeDecimal(trimDecimal(roundDecimal(value, maxDigits)), numberSymbols());
  const onStep = (value: string, step: string | null | undefined, rounding: StepRounding) => {
    const stepped = step ? toStep(value, step, rounding) : null;
    return stepped === null ? amount(value) : localizeDecimal(stepped, numberSymbols());
  };
  return {
    /**
     * USDT rounded to 2 decimals (`1,234.50`): figures computed from trading
     * (docs/conventions.md#money-and-numbers).
     */
    usdt: (value: string, options: { plus?: boolean } = {}) =>
      localizeDecimal(roundDecimal(value, 2), numberSymbols(), options),
    /**
     * USDT to the micro-unit, at least 2 decimals (`12.345678`, `11.00`): the wallet's balances and
     * movements and the amounts a user sets, where a rounded figure would not be the one held or
     * booked (docs/conventions.md#money-and-numbers).
     */
    usdtExact: (value: string, options: { plus?: boolean } = {}) =>
      localizeDecimal(trimDecimal(value, 2), numberSymbols(), options),
    amount,
    /**
     * A price at its market's tick (docs/conventions.md#money-and-numbers): on the nearest tick, as
     * the engine rounds an order's price, zeros kept to the tick (`79.40`, `3,394.70`). Without a
     * tick (the exchange did not answer) as `amount`.
     */
    price: (value: string, tick: string | null | undefined) => onStep(value, tick, 'nearest'),
    /**
     * A quantity at its market's lot step: truncated to the step, as the engine truncates an order's
     * quantity, zeros kept to the step (`0.2650`). Without a step as `amount`.
     */
    qty: (value: string, step: string | null | undefined) => onStep(value, step, 'down'),
    /** Percent string (1 = 1 %) with 2 decimals. */
    pct: (value: string, options: { plus?: boolean } = {}) =>
      `${localizeDecimal(trimDecimal(roundDecimal(value, 2)), numberSymbols(), options)}%`,
    integer: (value: number) => localizeDecimal(String(Math.trunc(value)), numberSymbols()),
    /**
     * A large amount shortened for a list (`1.82B`, `18.2亿`): its whole part as a BigInt, so Intl
     * rounds the exact figure and no float is involved.
     */
    compact: (value: string) => {
      const whole = /^\d+/.exec(value.trim())?.[0];
      return whole ? compactFormat().format(BigInt(whole)) : value;
    },
    /** `YYYY-MM-DD` or an ISO date-time, as a calendar date. */
    date: (value: string) =>
      dateFormat().format(new Date(value.length === 10 ? `${value}T00:00:00Z` : value)),
    /** `YYYY-MM-DD` as a day of the month without the year: `12 Mar`. */
    shortDate: (value: string) => shortDateFormat().format(new Date(`${value}T00:00:00Z`)),
    dateTime: (value: string) => dateTimeFormat().format(new Date(value)),
    /** `YYYY-MM`. */
    month: (value: string) => monthFormat().format(new Date(`${value}-01T00:00:00Z`)),
    /** The local time of an ISO date-time: `09:30`. */
    time: (value: string) => timeFormat().format(new Date(value)),
    /**
     * The local time of an event listed under a UTC day (docs/pnl.md#days-and-times): `09:30`, or
     * `14 Mar, 18:30` when the reader's calendar says another day than the UTC day above it.
     */
    timeUnder: (value: string, utcDay: string) => {
      const date = new Date(value);
      const local = `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
      return local === utcDay ? timeFormat().format(date) : dateTimeFormat().format(date);
    },
    /** A UTC day `YYYY-MM-DD` for list headers: `Today`, `Yesterday` (of the UTC calendar), else `Fri, 14 March`. */
    utcDay: (value: string, now: number = Date.now()) => {
      const days = Math.round(
        (Date.parse(`${value}T00:00:00Z`) - Date.parse(new Date(now).toISOString().slice(0, 10))) / DAY_MS,
      );
      if (days === 0 || days === -1) return capitalized(relativeFormat().format(days, 'day'), locale);
      return utcDayFormat().format(new Date(`${value}T00:00:00Z`));
    },
    /** How long ago, in words: `now`, `5 minutes ago`, `3 hours ago`, `yesterday`, `4 days ago`. */
    relative: (value: string, now: number = Date.now()) => {
      const seconds = Math.round((new Date(value).getTime() - now) / 1000);
      const [amount, unit] = relativeUnit(seconds);
      return relativeFormat().format(amount, unit);
    },
  };
};

/** One set per locale for the whole app, not one per component that formats. */
const formattersByLocale = new Map<string, Formatters>();

export const useFormat = (): Formatters => {
  const { i18n } = useTranslation();
  const locale = localeOf(i18n.language);
  let formatters = formattersByLocale.get(locale);
  if (!formatters) {
    formatters = createFormatters(locale);
    formattersByLocale.set(locale, formatters);
  }
  return formatters;
};
