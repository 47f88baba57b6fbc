import type { ButtonHTMLAttributes, ReactNode } from 'react';

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: 'primary' | 'secondary' | 'ghost' | 'danger' | 'telegram';
  block?: boolean;
  small?: boolean;
  busy?: boolean;
  children: ReactNode;
};

export const Button = ({
  variant = 'primary',
  block,
  small,
  busy,
  children,
  className,
  disabled,
  ...props
}: ButtonProps) => (
  <button
    type="button"
    className={[
      'button',
      `button--${variant}`,
      block ? 'button--block' : '',
      small ? 'button--small' : '',
      className ?? '',
    ]
      .filter(Boolean)
      .join(' ')}
    disabled={disabled || busy}
    aria-busy={busy || undefined}
    {...props}
  >
    {busy ? <span className="loader loader--small" aria-hidden="true" /> : null}
    {children}
  </button>
);
