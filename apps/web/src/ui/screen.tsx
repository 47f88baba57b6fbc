import type { ReactNode } from 'react';
import { BackControl } from '../shell/back-control';

type ScreenProps = {
  title: ReactNode;
  subtitle?: ReactNode;
  /** Nested screens go back: Telegram's BackButton inside Telegram, an arrow in the page elsewhere. */
  back?: boolean;
  action?: ReactNode;
  children: ReactNode;
};

export const Screen = ({ title, subtitle, back = false, action, children }: ScreenProps) => {
  return (
    <section>
      <header className={`screen-header${back ? ' screen-header--nested' : ''}`}>
        {back ? <BackControl /> : null}
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
