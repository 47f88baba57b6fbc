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

export const CopyButton = ({ text, label }: { text: string; label?: string }) => {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={label ?? t('common.copy')}
      onClick={() => {
        void copyText(text).then((ok) =>
          ok ? showToast(t('toast.copied'), 'success') : showToast(t('errors.clipboard'), 'error'),
        );
      }}
    >
      <CopyIcon />
    </button>
  );
};
