import { errorCatalogue } from '@gridbot/contracts';
import i18next from 'i18next';
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
import { applyChinesePluralRules } from '../src/i18n/setup';

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

/** i18next's plural forms of a text with a count: `key_one`, `key_few`, … `key_other`. */
const PLURAL_FORM = /_(zero|one|two|few|many|other)$/;
const baseKey = (key: string) => key.replace(PLURAL_FORM, '');
const pluralKeys = [...languages.en.keys()].filter((key) => key.endsWith('_other')).map(baseKey);
/** The forms each language has by its plural rules (`cn` is Chinese, `zh`: setup.ts). */
const formsOf = (locale: string) => new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
const pluralForms = { en: formsOf('en'), ru: formsOf('ru'), cn: formsOf('zh') };
/** The English text a key's translation is checked against: the key itself or its `_other` form. */
const reference = (key: string) => languages.en.get(key) ?? languages.en.get(`${baseKey(key)}_other`) ?? '';

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
  'Bybit',
  'OKX',
  // Chinese exchanges' own screens name the credentials "API Key" and "Secret Key".
  'Key',
  'Secret',
  // A file format (docs/product.md#exports), named so everywhere.
  'CSV',
]);

describe('translations', () => {
  it('has the same texts in en, ru and cn, each with the plural forms of its language', () => {
    const bases = (entries: Map<string, string>) => [...new Set([...entries.keys()].map(baseKey))].sort();
    expect(bases(languages.ru)).toEqual(bases(languages.en));
    expect(bases(languages.cn)).toEqual(bases(languages.en));
    for (const [name, entries] of Object.entries(languages)) {
      const forms = pluralForms[name as keyof typeof pluralForms];
      for (const key of pluralKeys) {
        const present = [...entries.keys()].filter((other) => baseKey(other) === key && other !== key);
        expect(present.sort(), `${name}:${key}`).toEqual(forms.map((form) => `${key}_${form}`).sort());
      }
      // A plural form only where English has the text's `_other` form.
      for (const key of entries.keys()) if (PLURAL_FORM.test(key)) expect(pluralKeys).toContain(baseKey(key));
    }
  });

  it('has no empty text and the same placeholders in every language', () => {
    for (const [name, entries] of Object.entries(languages)) {
      for (const [key, translated] of entries) {
        expect(translated.trim(), `${name}:${key}`).not.toBe('');
        expect(placeholders(translated), `${name}:${key}`).toEqual(placeholders(reference(key)));
      }
    }
    for (const key of pluralKeys) expect(placeholders(reference(key)), key).toContain('count');
  });

  it('puts no number before an English plural noun unless the text has plural forms', () => {
    // "Your license pays 1 generations": a count before a noun needs `_one` / `_other`.
    for (const [key, text] of languages.en) {
      if (PLURAL_FORM.test(key)) continue;
      expect(text, key).not.toMatch(/\{\{\w+\}\} (?!is\b)[a-z]*s\b/);
    }
  });

  it('says a count in the right form in every language', async () => {
    const instance = i18next.createInstance();
    await instance.init({
      resources: { en: { translation: en }, ru: { translation: ru }, cn: { translation: cn } },
      fallbackLng: FALLBACK_LANGUAGE,
      interpolation: { escapeValue: false },
      initAsync: false,
    });
    applyChinesePluralRules(instance);
    const generations = (lng: string, count: number) =>
      instance.t('matchingBonus.generations', { lng, count });
    expect(generations('en', 1)).toBe('Your license pays 1 generation');
    expect(generations('en', 3)).toBe('Your license pays 3 generations');
    expect(generations('ru', 1)).toBe('Ваша лицензия оплачивает 1 поколение');
    expect(generations('ru', 3)).toBe('Ваша лицензия оплачивает 3 поколения');
    expect(generations('ru', 5)).toBe('Ваша лицензия оплачивает 5 поколений');
    expect(generations('ru', 21)).toBe('Ваша лицензия оплачивает 21 поколение');
    // Chinese has one form: never the fallback's Russian, whatever the browser's own language.
    expect(generations('cn', 1)).toBe('您的许可证可获得 1 代奖励');
    expect(instance.t('validation.minLength', { lng: 'en', count: 1 })).toBe('Must be at least 1 character');
    expect(instance.t('deposit.creditedAfterValue', { lng: 'ru', count: 2, minutes: 1 })).toBe(
      '2 блока, около 1 мин',
    );
  });

  it('calls drying "sell only" in Chinese, never 清仓 (liquidating everything)', () => {
    for (const [key, text] of languages.cn) expect(text, key).not.toContain('清仓');
    expect(cn.editToken.dry).toBe('只卖模式');
    expect(cn.coinState.drying).toBe('只卖不买');
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
