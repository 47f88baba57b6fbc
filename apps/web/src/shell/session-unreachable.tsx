import { useTranslation } from 'react-i18next';
import { attemptSignIn } from '../session/session-lifecycle';
import { Button } from '../ui/button';
import { BrandMark } from './brand';

/**
 * The token expired while re-authorisation could not reach the server (docs/security.md#re-authorisation):
 * the session has not been refused, so this says so and keeps retrying by itself; "Try now" does
 * not wait for the next retry. The app comes back as soon as a sign-in succeeds.
 */
export const SessionUnreachable = () => {
  const { t } = useTranslation();
  return (
    <div className="fullscreen-center" data-testid="session-unreachable" role="status" aria-live="polite">
      <BrandMark />
      <h1 className="guest-card__title">{t('session.unreachableTitle')}</h1>
      <p className="session-message">{t('session.unreachable')}</p>
      <div className="loader loader--small" aria-hidden="true" />
      <Button variant="secondary" onClick={() => attemptSignIn('try now')}>
        {t('session.retryNow')}
      </Button>
    </div>
  );
};
