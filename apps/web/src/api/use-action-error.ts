import { useTranslation } from 'react-i18next';
import { errorTextKeyOf } from './error-text';

type FallbackKey = 'startTrading' | 'stopTrading' | 'changeStatus' | 'tryLater';

/**
 * Text for a failed action: the client text of a known server message (spec §8), else the action's
 * fallback text, else the generic one.
 */
export const useActionError = () => {
  const { t } = useTranslation();
  return (error: unknown, fallback?: FallbackKey): string => {
    const key = errorTextKeyOf(error);
    if (key === 'generic' && fallback) return t(`fallback.${fallback}`);
    return t(`errors.${key}`);
  };
};
