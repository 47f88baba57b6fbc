import { useTranslation } from 'react-i18next';
import { DEFAULT_LANGUAGE, normalizeLanguage } from '../i18n/language';
import { errorMessage, type FallbackKey } from './error-text';

/**
 * Text for a failed call in the interface language: the catalogue's text for the error's code
 * (spec §8), else the action's fallback text, else the generic one.
 */
export const useActionError = () => {
  const { t, i18n } = useTranslation();
  const language = normalizeLanguage(i18n.language) ?? DEFAULT_LANGUAGE;
  return (error: unknown, fallback?: FallbackKey): string => errorMessage(error, language, t, fallback);
};
