import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../ui/states';

export const NotFound = () => {
  const { t } = useTranslation();
  return (
    <div className="fullscreen-center">
      <EmptyState
        title={t('common.notFoundTitle')}
        text={t('common.notFoundText')}
        action={
          <Link to="/" className="button button--primary">
            {t('common.toPanel')}
          </Link>
        }
      />
    </div>
  );
};
