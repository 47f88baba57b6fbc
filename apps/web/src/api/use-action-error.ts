import type { ErrorCode } from '@gridbot/contracts';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LANGUAGE, normalizeLanguage } from '../i18n/language';
import { catalogueText, errorMessage, type FallbackKey } from './error-text';

const useLanguage = () => {
  const { i18n } = useTranslation();
  return normalizeLanguage(i18n.language) ?? DEFAULT_LANGUAGE;
};

/** A catalogue code's text in the interface language (the same sentence the server sends). */
export const useCatalogueText = () => {
  const language = useLanguage();
  return (code: ErrorCode): string => catalogueText(code, language);
};

/**
 * Text for a failed call in the interface language: the catalogue's text for the error's code
 * (docs/errors.md), else the action's fallback text, else the generic one.
 */
export const useActionError = () => {
  const { t } = useTranslation();
  const language = useLanguage();
  return (error: unknown, fallback?: FallbackKey): string => errorMessage(error, language, t, fallback);
};
