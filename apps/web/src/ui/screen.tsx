import { useRouter } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BackIcon } from './icons';

type ScreenProps = {
  title: ReactNode;
  subtitle?: ReactNode;
  /** Nested screens show a back button (Telegram's own back button mirrors it). */
  back?: boolean;
  action?: ReactNode;
  children: ReactNode;
};

export const Screen = ({ title, subtitle, back = false, action, children }: ScreenProps) => {
  const { t } = useTranslation();
  const router = useRouter();
  return (
    <section>
      <header className={`screen-header${back ? ' screen-header--nested' : ''}`}>
        {back ? (
          <button
            type="button"
            className="icon-button"
            aria-label={t('common.back')}
            onClick={() => router.history.back()}
          >
            <BackIcon />
          </button>
        ) : null}
        <h1 className="screen-header__title">{title}</h1>
        {action}
      </header>
      {subtitle ? <p className="screen-header__subtitle">{subtitle}</p> : null}
      {children}
    </section>
  );
};

export const SectionTitle = ({ children, action }: { children: ReactNode; action?: ReactNode }) => (
  <h2 className="section-title">
    <span>{children}</span>
    {action}
  </h2>
);

export const Card = ({
  children,
  title,
  flush,
}: {
  children: ReactNode;
  title?: ReactNode;
  flush?: boolean;
}) => (
  <div className={`card${flush ? ' card--flush' : ''}`}>
    {title ? <h2 className="card__title">{title}</h2> : null}
    {children}
  </div>
);
