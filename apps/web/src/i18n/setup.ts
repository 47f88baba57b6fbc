import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, FALLBACK_LANGUAGE, htmlLangOf, LANGUAGES, type Language } from './language';
import type { Messages } from './locales/en';

/** Each language is a chunk of its own, loaded before first use (keeps the entry small). */
const loaders: Record<Language, () => Promise<Messages>> = {
  en: () => import('./locales/en').then((module) => module.en),
  ru: () => import('./locales/ru').then((module) => module.ru),
  cn: () => import('./locales/cn').then((module) => module.cn),
};

const ensureLoaded = async (language: Language) => {
  if (i18next.hasResourceBundle(language, 'translation')) return;
  i18next.addResourceBundle(language, 'translation', await loaders[language](), true, true);
};

/**
 * i18next picks a text's plural form by the language's plural rules (`Intl.PluralRules`), found by
 * the language code; `cn` is not a language code (Chinese is `zh`), so it would get the browser's
 * own rules and miss its forms. Chinese has one form, `_other`.
 */
export const applyChinesePluralRules = (instance: i18n): void => {
  const resolver = instance.services.pluralResolver as {
    getRule: (code: string, options?: object) => Intl.PluralRules | undefined;
  };
  const getRule = resolver.getRule.bind(resolver);
  resolver.getRule = (code, options) => getRule(code === 'cn' ? 'zh' : code, options);
};

export const initI18n = async (language: Language): Promise<void> => {
  await i18next.use(initReactI18next).init({
    resources: {},
    lng: DEFAULT_LANGUAGE,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  applyChinesePluralRules(i18next);
  await changeLanguage(language);
};

let changing = Promise.resolve();

/** Switches the interface language (loading it and the fallback first). */
export const changeLanguage = (language: Language): Promise<void> => {
  changing = changing.then(async () => {
    await Promise.all([
      ensureLoaded(language),
      language === DEFAULT_LANGUAGE ? null : ensureLoaded(FALLBACK_LANGUAGE),
    ]);
    await i18next.changeLanguage(language);
    document.documentElement.lang = htmlLangOf(language);
  });
  return changing;
};

export const currentLanguage = (): Language => {
  const language = i18next.language;
  return (LANGUAGES as readonly string[]).includes(language) ? (language as Language) : DEFAULT_LANGUAGE;
};
