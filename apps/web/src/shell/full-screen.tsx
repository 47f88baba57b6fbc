import { useTranslation } from 'react-i18next';

export const FullScreenLoader = ({ label }: { label?: string }) => {
  const { t } = useTranslation();
  return (
    <div className="fullscreen-center" aria-busy="true">
      <div className="loader" role="progressbar" aria-label={label ?? t('common.loading')} />
    </div>
  );
};
