import { type ErrorCode, errorCatalogue, fillDetail, type Language } from '@gridbot/contracts';
import { isApiError } from './api-error';

/**
 * Which text an error shows, chosen by the error body's `code` (never by its English message):
 * a catalogue code shows the catalogue's own sentence in the user's language — the one copy the
 * server sends as `detail` too — and anything else one of the few texts only the client has.
 */
export type ErrorText = { code: ErrorCode } | { key: ClientErrorKey };

/** Keys of `errors.*` in the translations: what the catalogue cannot know. */
export type ClientErrorKey = 'network' | 'generic';

/** docs/errors.md fallback texts of an action (keys of `fallback.*`), shown for codes nobody planned. */
export type FallbackKey =
  | 'startTrading'
  | 'stopTrading'
  | 'changeStatus'
  | 'dryAll'
  | 'activateCoins'
  | 'tryLater'
  | 'saveApiKeys';

export const isCatalogueCode = (code: string): code is ErrorCode => Object.hasOwn(errorCatalogue, code);

/** An instant in an error text, in the reader's time: `29 Nov, 14:05`. */
const localMinute = (language: Language) => (instant: Date) =>
  new Intl.DateTimeFormat(language === 'cn' ? 'zh-CN' : language, {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  }).format(instant);

/** The catalogue's sentence; a `{until}` in it is the error's instant in the reader's time. */
export const catalogueText = (code: ErrorCode, language: Language, until?: string): string =>
  fillDetail(
    errorCatalogue[code].detail[language],
    until ? new Date(until) : undefined,
    localMinute(language),
  );

/**
 * Answers whose body is not the error shape (a proxy's 429 or 501) still have a status that
 * names their catalogue entry.
 */
const CODE_OF_BARE_STATUS: Readonly<Record<number, ErrorCode>> = {
  429: 'RATE_LIMITED',
  501: 'NOT_IMPLEMENTED',
};

export const errorTextOf = (error: unknown): ErrorText | null => {
  if (!isApiError(error)) return null;
  if (isCatalogueCode(error.code)) return { code: error.code };
  const byStatus = CODE_OF_BARE_STATUS[error.status];
  if (byStatus) return { code: byStatus };
  if (error.code === 'NETWORK') return { key: 'network' };
  return null;
};

type Translate = (key: `errors.${ClientErrorKey}` | `fallback.${FallbackKey}`) => string;

/**
 * The sentence for a failed call in `language`: the catalogue's text for its code, the client's
 * network text, else the action's fallback, else docs/errors.md's generic "operation failed".
 */
export const errorMessage = (
  error: unknown,
  language: Language,
  t: Translate,
  fallback?: FallbackKey,
): string => {
  const text = errorTextOf(error);
  if (text && 'code' in text)
    return catalogueText(text.code, language, isApiError(error) ? error.until : undefined);
  if (text) return t(`errors.${text.key}`);
  return fallback ? t(`fallback.${fallback}`) : t('errors.generic');
};

/**
 * Wallet deposit, create-wallet and address errors (docs/errors.md): the server's detail, then the error
 * message, then 'Unknown error' (the caller translates that last one).
 */
export const walletErrorText = (error: unknown): string | null => {
  if (!isApiError(error)) return null;
  return error.detail || error.message || null;
};
