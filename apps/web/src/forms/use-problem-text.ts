import { useTranslation } from 'react-i18next';
import { useCatalogueText } from '../api/use-action-error';
import type { Problem } from './validation';

/** A form problem in the interface language: a `validation.*` text or the catalogue's text. */
export const useProblemText = () => {
  const { t } = useTranslation();
  const catalogueText = useCatalogueText();
  return (problem: Problem | null | undefined): string | null => {
    if (!problem) return null;
    if ('code' in problem) return catalogueText(problem.code);
    // The parameters belong to the key; i18next cannot relate the two for a computed key.
    const params = (problem.params ?? {}) as { min: string; max: string; count: number };
    return t(`validation.${problem.key}`, params);
  };
};
