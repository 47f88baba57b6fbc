import { useTranslation } from 'react-i18next';
import { showToast } from '../shell/toast-store';
import { CopyIcon } from './icons';

export const copyText = async (text: string): Promise<boolean> => {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
};

/** Copies and says so; a refused clipboard says 'could not copy to clipboard' (docs/errors.md#client-texts). */
export const useCopy = () => {
  const { t } = useTranslation();
  return (text: string, done: string = t('toast.copied')) => {
    void copyText(text).then((ok) =>
      ok ? showToast(done, 'success') : showToast(t('errors.clipboard'), 'error'),
    );
  };
};

export const CopyButton = ({ text, label }: { text: string; label?: string }) => {
  const { t } = useTranslation();
  const copy = useCopy();
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={label ?? t('common.copy')}
      onClick={() => copy(text)}
    >
      <CopyIcon />
    </button>
  );
};
