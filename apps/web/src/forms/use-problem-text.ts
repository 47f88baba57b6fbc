import { useTranslation } from 'react-i18next';
import type { Problem } from './validation';

export const useProblemText = () => {
  const { t } = useTranslation();
  return (problem: Problem | null | undefined): string | null => {
    if (!problem) return null;
    // The parameters belong to the key; i18next cannot relate the two for a computed key.
    const params = (problem.params ?? {}) as { min: string; max: string; digits: string };
    return t(`validation.${problem.key}`, params);
  };
};
