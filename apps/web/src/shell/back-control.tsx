import { useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from '../state/create-store';
import { nativeControlsStore } from '../telegram/native-controls';
import { BackIcon } from '../ui/icons';
import { stepBack } from './back-layers';

/**
 * Back, from the page's arrow or Telegram's BackButton: a form with unsaved input asks to discard
 * it first (closing the app asks too: `useClosingConfirmation`).
 */
export const useStepBack = () => {
  const { t } = useTranslation();
  const router = useRouter();
  return useCallback(
    () =>
      stepBack(
        () => router.history.back(),
        // Loaded when asked: the shell's first screen does not carry the popup's code.
        () =>
          import('../telegram/confirm').then(({ confirmAction }) =>
            confirmAction({
              title: t('common.discardTitle'),
              message: t('common.discardText'),
              confirmText: t('common.discard'),
              destructive: true,
            }),
          ),
      ),
    [router, t],
  );
};

/**
 * The page's back arrow on nested screens, in an ordinary browser only: inside Telegram its native
 * BackButton (`useTelegramBackButton`) is the one way back, never a second arrow in the page.
 */
export const BackControl = () => {
  const { t } = useTranslation();
  const back = useStepBack();
  const native = useStore(nativeControlsStore).back;
  if (native) return null;
  return (
    <button type="button" className="icon-button" aria-label={t('common.back')} onClick={() => void back()}>
      <BackIcon />
    </button>
  );
};
