import { useRouter } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useStore } from '../state/create-store';
import { nativeControlsStore } from '../telegram/native-controls';
import { BackIcon } from '../ui/icons';

/**
 * The page's back arrow on nested screens, in an ordinary browser only: inside Telegram its native
 * BackButton (`useTelegramBackButton`) is the one way back, never a second arrow in the page.
 */
export const BackControl = () => {
  const { t } = useTranslation();
  const router = useRouter();
  const native = useStore(nativeControlsStore).back;
  if (native) return null;
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={t('common.back')}
      onClick={() => router.history.back()}
    >
      <BackIcon />
    </button>
  );
};
