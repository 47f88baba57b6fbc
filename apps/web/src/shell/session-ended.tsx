import { useTranslation } from 'react-i18next';
import { isInsideTelegram } from '../telegram/host';
import { reportSdkError } from '../telegram/report-sdk-error';
import { loadTelegramSdk } from '../telegram/sdk';
import { Button } from '../ui/button';
import { BrandMark } from './brand';

/** Closes the mini app through Telegram: reopening it brings new launch data, which signs in. */
const closeMiniApp = async () => {
  try {
    const sdk = await loadTelegramSdk();
    if (sdk.miniApp.close.isAvailable()) sdk.miniApp.close();
  } catch (error) {
    reportSdkError('miniApp.close', error);
  }
};

/**
 * After "sign out on all devices" (docs/security.md#sessions): every session has ended, this one
 * too, and the launch data this page was opened with no longer signs in. Reopening the mini app
 * from Telegram does.
 */
export const SessionEnded = () => {
  const { t } = useTranslation();
  return (
    <div className="fullscreen-center" data-testid="session-ended" role="status">
      <BrandMark />
      <h1 className="guest-card__title">{t('session.endedTitle')}</h1>
      <p className="session-message">{t('session.ended')}</p>
      {isInsideTelegram() ? (
        <Button variant="secondary" onClick={() => void closeMiniApp()}>
          {t('session.close')}
        </Button>
      ) : null}
    </div>
  );
};
