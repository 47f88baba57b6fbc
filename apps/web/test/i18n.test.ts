import { errorCatalogue } from '@gridbot/contracts';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LANGUAGE,
  FALLBACK_LANGUAGE,
  guessLanguage,
  LANGUAGES,
  normalizeLanguage,
} from '../src/i18n/language';
import { cn } from '../src/i18n/locales/cn';
import { en } from '../src/i18n/locales/en';
import { ru } from '../src/i18n/locales/ru';

type Tree = { readonly [key: string]: string | Tree };

const flatten = (tree: Tree, prefix = ''): Map<string, string> => {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') entries.set(path, value);
    else for (const [child, text] of flatten(value, path)) entries.set(child, text);
  }
  return entries;
};

const languages = { en: flatten(en), ru: flatten(ru), cn: flatten(cn) };
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

/**
 * Latin words a Russian or Chinese text may contain: product, network and exchange names, codes,
 * and the spec's own Russian texts, which keep "initData" and "WebApp".
 */
const ALLOWED_LATIN = new Set([
  'GridBot',
  'USDT',
  'TRC',
  'TRON',
  'UID',
  'API',
  'PNL',
  'UTC',
  'PRO',
  'Telegram',
  'WebApp',
  'initData',
  'T',
  'QR',
  // Internet addresses and the exchange's name are written this way in Russian and Chinese too.
  'IP',
  'Binance',
  // A file format (docs/product.md#exports), named so everywhere.
  'CSV',
]);

describe('translations', () => {
  it('has exactly the same keys in en, ru and cn', () => {
    const reference = [...languages.en.keys()].sort();
    expect([...languages.ru.keys()].sort()).toEqual(reference);
    expect([...languages.cn.keys()].sort()).toEqual(reference);
  });

  it('has no empty text and the same placeholders in every language', () => {
    for (const [key, text] of languages.en) {
      for (const [name, entries] of Object.entries(languages)) {
        const translated = entries.get(key) ?? '';
        expect(translated.trim(), `${name}:${key}`).not.toBe('');
        expect(placeholders(translated), `${name}:${key}`).toEqual(placeholders(text));
      }
    }
  });

  it.each(['ru', 'cn'] as const)('lets no English leak into %s', (name) => {
    // The catalogue's texts are shown by the app too (errors by code), so they are checked alike.
    const catalogue = Object.entries(errorCatalogue).map(([code, entry]): [string, string] => [
      code,
      entry.detail[name],
    ]);
    for (const [key, text] of [...languages[name], ...catalogue]) {
      // `{{x}}` in the app's texts, `{until}` in the catalogue's: placeholders, not words.
      const words = text.replace(/\{\{\w+\}\}|\{\w+\}/g, '').match(/[A-Za-z]+/g) ?? [];
      const english = words.filter((word) => !ALLOWED_LATIN.has(word));
      expect(english, `${name}:${key} = ${text}`).toEqual([]);
    }
  });

  it('quotes the spec texts exactly in Russian', () => {
    expect(ru.session.invalid).toBe(
      'Сессия недействительна. Пожалуйста, закройте и снова откройте WebApp в Telegram.',
    );
    expect(ru.login.failure.maintenance).toBe('Проводятся технические работы. Пожалуйста, попробуйте позже.');
    expect(errorCatalogue.INIT_DATA_MISSING.detail.ru).toBe(
      'initData отсутствует. Пожалуйста, закройте WebApp и снова нажмите кнопку "Открыть" в Telegram через пару секунд.',
    );
    expect(errorCatalogue.RATE_LIMITED.detail.en).toBe('Too many requests. Please try again later.');
    expect(en.fallback.startTrading).toBe("Couldn't start trading, please try again later.");
  });
});

describe('languages', () => {
  it('are en, ru, cn with default en and fallback ru', () => {
    expect(LANGUAGES).toEqual(['en', 'ru', 'cn']);
    expect(DEFAULT_LANGUAGE).toBe('en');
    expect(FALLBACK_LANGUAGE).toBe('ru');
  });

  it('reads the stored value lower-cased and refuses unknown ones', () => {
    expect(normalizeLanguage('RU')).toBe('ru');
    expect(normalizeLanguage(' Cn ')).toBe('cn');
    expect(normalizeLanguage('de')).toBeNull();
    expect(normalizeLanguage(null)).toBeNull();
  });

  it('guesses from the Telegram language before sign-in', () => {
    expect(guessLanguage('ru')).toBe('ru');
    expect(guessLanguage('zh-hans')).toBe('cn');
    expect(guessLanguage('de')).toBe('en');
    expect(guessLanguage(undefined)).toBe('en');
  });
});
