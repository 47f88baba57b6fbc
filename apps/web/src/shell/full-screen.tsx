import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { showingLoader } from '../telegram/first-render';

export const FullScreenLoader = ({ label }: { label?: string }) => {
  const { t } = useTranslation();
  // Telegram's ready() and the SDK wait until no loader is left (src/telegram/first-render.ts).
  useEffect(() => showingLoader(), []);
  return (
    <div className="fullscreen-center" aria-busy="true">
      <div className="loader" role="progressbar" aria-label={label ?? t('common.loading')} />
    </div>
  );
};
