import type { ReactNode } from 'react';

/**
 * A link out of the app (the TRON explorer): a real link for assistive technology and a long press,
 * opened through Telegram's in-app browser where there is one (the SDK loads on first use).
 */
export const ExternalLink = ({
  href,
  children,
  className,
}: {
  href: string;
  children: ReactNode;
  className?: string;
}) => (
  <a
    href={href}
    target="_blank"
    rel="noopener noreferrer"
    className={className}
    onClick={(event) => {
      event.preventDefault();
      void import('../telegram/links').then(({ openExternal }) => openExternal(href));
    }}
  >
    {children}
  </a>
);
