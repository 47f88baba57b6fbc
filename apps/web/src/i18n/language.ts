/** docs/product.md#features, §9: en, ru, cn; default en, fallback ru. */
export const LANGUAGES = ['en', 'ru', 'cn'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
export const FALLBACK_LANGUAGE: Language = 'ru';

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** The stored value is set once, lower-cased (docs/product.md#behaviour); anything unknown gives null. */
export const normalizeLanguage = (value: string | null | undefined): Language | null => {
  const lower = value?.trim().toLowerCase();
  return isLanguage(lower) ? lower : null;
};

/** Before sign-in the Telegram client's language is the best guess (`ru`, `zh-hans` → cn). */
export const guessLanguage = (telegramCode: string | null | undefined): Language => {
  const code = telegramCode?.trim().toLowerCase() ?? '';
  if (code.startsWith('ru')) return 'ru';
  if (code.startsWith('zh') || code === 'cn') return 'cn';
  return DEFAULT_LANGUAGE;
};

/** BCP 47 locale for number and date formatting. */
export const localeOf = (language: string): string => {
  if (language === 'ru') return 'ru-RU';
  if (language === 'cn') return 'zh-CN';
  return 'en-US';
};

/** The `lang` attribute of the document. */
export const htmlLangOf = (language: string): string => (language === 'cn' ? 'zh-CN' : language);
