import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { signIn } from '../../session/sign-in';
import { BrandMark } from '../../shell/brand';
import { showToast } from '../../shell/toast-store';
import { Button } from '../../ui/button';

/** Where a 401 leads (docs/product.md#behaviour): sign in again with the launch data, then back to the panel. */
export const LoginScreen = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const retry = async () => {
    setBusy(true);
    try {
      await signIn();
      showToast(t('toast.signedIn'), 'success');
      await navigate({ to: '/' });
    } catch {
      // The error modal already shows why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="guest-card" data-screen="login">
      <BrandMark />
      <h1 className="guest-card__title">{t('login.title')}</h1>
      <p className="guest-card__text">{t('login.text')}</p>
      <Button variant="telegram" block busy={busy} onClick={() => void retry()}>
        {t('login.button')}
      </Button>
      <p className="guest-card__footer">
        {t('login.noAccount')}{' '}
        <a
          href="/register"
          onClick={(event) => {
            event.preventDefault();
            void navigate({ to: '/register' });
          }}
        >
          {t('login.toRegister')}
        </a>
      </p>
    </div>
  );
};
