import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { localeOf } from '../i18n/language';
import { localizeDecimal, type NumberSymbols, roundDecimal, trimDecimal } from './decimal';

const symbolsOf = (locale: string): NumberSymbols => {
  const parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
  const group = parts.find((part) => part.type === 'group')?.value ?? ',';
  const decimal = parts.find((part) => part.type === 'decimal')?.value ?? '.';
  return { group, decimal };
};

export type Formatters = ReturnType<typeof createFormatters>;

export const createFormatters = (locale: string) => {
  const symbols = symbolsOf(locale);
  const dateFormat = new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const dateTimeFormat = new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
  const monthFormat = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const compactFormat = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 2 });
  return {
    /** USDT with 2 decimals: `1,234.50`. */
    usdt: (value: string, options: { plus?: boolean } = {}) =>
      localizeDecimal(roundDecimal(value, 2), symbols, options),
    /** A price or quantity with its own precision, trailing zeros trimmed. */
    amount: (value: string, maxDigits = 8) =>
      localizeDecimal(trimDecimal(roundDecimal(value, maxDigits)), symbols),
    /** Percent string (1 = 1 %) with 2 decimals. */
    pct: (value: string, options: { plus?: boolean } = {}) =>
      `${localizeDecimal(trimDecimal(roundDecimal(value, 2)), symbols, options)}%`,
    integer: (value: number) => localizeDecimal(String(Math.trunc(value)), symbols),
    /**
     * A large amount shortened for a list (`1.82B`, `18.2亿`): its whole part as a BigInt, so Intl
     * rounds the exact figure and no float is involved.
     */
    compact: (value: string) => {
      const whole = /^\d+/.exec(value.trim())?.[0];
      return whole ? compactFormat.format(BigInt(whole)) : value;
    },
    /** `YYYY-MM-DD` or an ISO date-time, as a calendar date. */
    date: (value: string) => dateFormat.format(new Date(value.length === 10 ? `${value}T00:00:00Z` : value)),
    dateTime: (value: string) => dateTimeFormat.format(new Date(value)),
    /** `YYYY-MM`. */
    month: (value: string) => monthFormat.format(new Date(`${value}-01T00:00:00Z`)),
  };
};

export const useFormat = (): Formatters => {
  const { i18n } = useTranslation();
  const locale = localeOf(i18n.language);
  return useMemo(() => createFormatters(locale), [locale]);
};
