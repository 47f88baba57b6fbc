import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PanelIcon } from './tab-icons';

export const BrandMark = () => (
  <div className="brand-mark">
    <PanelIcon filled />
  </div>
);

/** docs/product.md#screens: without a successful sign-in the routed view is replaced by this text. */
export const SessionInvalid = ({ children }: { children?: ReactNode }) => {
  const { t } = useTranslation();
  return (
    <div className="fullscreen-center" data-testid="session-invalid">
      <BrandMark />
      <p className="session-message">{t('session.invalid')}</p>
      {children}
    </div>
  );
};
