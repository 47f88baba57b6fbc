import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { BrandMark } from '../../shell/brand';
import { useSupportUrl } from '../../shell/support-url';
import { openExternal } from '../../telegram/links';
import { Button } from '../../ui/button';

/** Registration happens through a sponsor's referral link (docs/bonuses.md); this screen explains how. */
export const RegisterScreen = () => {
  const { t } = useTranslation();
  const supportUrl = useSupportUrl();
  const steps = [t('register.step1'), t('register.step2'), t('register.step3')];
  return (
    <div className="guest-card" data-screen="register">
      <BrandMark />
      <h1 className="guest-card__title">{t('register.title')}</h1>
      <p className="guest-card__text">{t('register.text')}</p>
      <ol className="steps">
        {steps.map((step, index) => (
          <li key={step}>
            <span className="steps__number">{index + 1}</span>
            <span>{step}</span>
          </li>
        ))}
      </ol>
      <Button
        variant="telegram"
        block
        disabled={!supportUrl}
        onClick={() => {
          if (supportUrl) openExternal(supportUrl);
        }}
      >
        {t('register.support')}
      </Button>
      <Link to="/login" className="button button--ghost button--block">
        {t('register.toLogin')}
      </Link>
    </div>
  );
};
