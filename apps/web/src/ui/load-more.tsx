import { useTranslation } from 'react-i18next';
import { Button } from './button';

export const LoadMore = ({
  hasMore,
  loading,
  onLoad,
}: {
  hasMore: boolean;
  loading: boolean;
  onLoad: () => void;
}) => {
  const { t } = useTranslation();
  if (!hasMore) return null;
  return (
    <Button variant="secondary" block busy={loading} onClick={onLoad}>
      {t('common.loadMore')}
    </Button>
  );
};
