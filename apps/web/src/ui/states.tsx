import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../api/api-error';
import { useActionError } from '../api/use-action-error';
import { Button } from './button';
import { AlertIcon, ClockIcon, InfoIcon } from './icons';

export const EmptyState = ({
  title,
  text,
  action,
}: {
  title: ReactNode;
  text?: ReactNode;
  action?: ReactNode;
}) => (
  <div className="state">
    <div className="state__icon">
      <InfoIcon />
    </div>
    <div className="state__title">{title}</div>
    {text ? <div className="state__text">{text}</div> : null}
    {action}
  </div>
);

/** In-place error: "coming soon" while the feature's endpoint is not live yet (501), else a retry. */
export const ErrorState = ({ error, onRetry }: { error: unknown; onRetry?: () => void }) => {
  const { t } = useTranslation();
  const errorText = useActionError();
  if (isApiError(error) && error.status === 501) {
    return (
      <div className="state state--inline" data-state="coming-soon">
        <div className="state__icon">
          <ClockIcon />
        </div>
        <div>
          <div className="state__title">{t('common.comingSoonTitle')}</div>
          <div className="state__text">{t('common.comingSoonText')}</div>
        </div>
      </div>
    );
  }
  return (
    <div className="state state--error" role="alert" data-state="error">
      <div className="state__icon">
        <AlertIcon />
      </div>
      <div className="state__title">{t('common.loadFailed')}</div>
      <div className="state__text">{errorText(error)}</div>
      {onRetry ? (
        <Button variant="secondary" small onClick={onRetry}>
          {t('common.retry')}
        </Button>
      ) : null}
    </div>
  );
};

export const Skeleton = ({ height = 16, width = '100%' }: { height?: number; width?: number | string }) => (
  <div className="skeleton" style={{ height, width }} aria-hidden="true" />
);

const SKELETON_KEYS = ['a', 'b', 'c', 'd', 'e', 'f'] as const;

/** Placeholder rows while a list loads. */
export const SkeletonRows = ({ rows = 3 }: { rows?: number }) => (
  <div className="card" aria-busy="true">
    {SKELETON_KEYS.slice(0, rows).map((key) => (
      <div key={key} style={{ display: 'flex', gap: 12, alignItems: 'center', padding: '8px 0' }}>
        <Skeleton height={38} width={38} />
        <div style={{ flex: 1, display: 'grid', gap: 6 }}>
          <Skeleton height={14} width="60%" />
          <Skeleton height={12} width="35%" />
        </div>
      </div>
    ))}
  </div>
);
