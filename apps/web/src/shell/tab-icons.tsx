import { type IconProps, Svg } from '../ui/svg-icon';

/** Tab bar icons: outline, and filled for the current tab (docs/product.md#screens). */
export const WalletIcon = ({ filled, ...props }: IconProps) =>
  filled ? (
    <Svg filled {...props}>
      <path d="M5 4.5A2.5 2.5 0 0 0 2.5 7v10A2.5 2.5 0 0 0 5 19.5h14a2.5 2.5 0 0 0 2.5-2.5v-1.75H17a3.25 3.25 0 0 1 0-6.5h4.5V7A2.5 2.5 0 0 0 19 4.5H5Z" />
      <path d="M21.5 10.75H17a1.75 1.75 0 0 0 0 3.5h4.5v-3.5Zm-4.25 2.6a.85.85 0 1 1 0-1.7.85.85 0 0 1 0 1.7Z" />
    </Svg>
  ) : (
    <Svg {...props}>
      <rect x="3" y="5" width="18" height="14" rx="2.5" />
      <path d="M21 10h-4a2 2 0 0 0 0 4h4" />
      <circle cx="17" cy="12" r="0.6" fill="currentColor" />
    </Svg>
  );

export const PortfolioIcon = ({ filled, ...props }: IconProps) =>
  filled ? (
    <Svg filled {...props}>
      <path d="M11 3.05A9 9 0 1 0 20.95 13H11V3.05Z" />
      <path d="M13 2.05V11h8.95A9 9 0 0 0 13 2.05Z" />
    </Svg>
  ) : (
    <Svg {...props}>
      <path d="M11 4a8 8 0 1 0 9 9h-9V4Z" />
      <path d="M14.5 3.3A8 8 0 0 1 20.7 9.5h-6.2V3.3Z" />
    </Svg>
  );

export const PanelIcon = ({ filled, ...props }: IconProps) => (
  <Svg {...props} strokeWidth={filled ? 2.4 : 2}>
    <path d="M4 17l4.5-5 3.5 3 7-8" />
    <path d="M15 7h4v4" />
  </Svg>
);

export const PartnersIcon = ({ filled, ...props }: IconProps) =>
  filled ? (
    <Svg filled {...props}>
      <circle cx="9" cy="8" r="3.8" />
      <path d="M1.8 19.2C2.4 15.6 5.4 13.5 9 13.5s6.6 2.1 7.2 5.7a1 1 0 0 1-1 1.3H2.8a1 1 0 0 1-1-1.3Z" />
      <circle cx="17" cy="8.5" r="3" />
      <path d="M17.6 13.2c2.7.3 4.6 2.2 5 5a1 1 0 0 1-1 1.3h-3.7c.1-2.5-.8-4.6-2.4-6.1.7-.2 1.4-.3 2.1-.2Z" />
    </Svg>
  ) : (
    <Svg {...props}>
      <circle cx="9" cy="8" r="3.5" />
      <path d="M2.5 19.5c.6-3.4 3.3-5.5 6.5-5.5s5.9 2.1 6.5 5.5" />
      <circle cx="17" cy="8.5" r="2.7" />
      <path d="M17.5 13.7c2.4.3 4 2.1 4.3 4.8" />
    </Svg>
  );

export const ProfileIcon = ({ filled, ...props }: IconProps) =>
  filled ? (
    <Svg filled {...props}>
      <circle cx="12" cy="8" r="4.5" />
      <path d="M3.6 19.6C4.5 15.8 7.9 13.5 12 13.5s7.5 2.3 8.4 6.1a1 1 0 0 1-1 1.2H4.6a1 1 0 0 1-1-1.2Z" />
    </Svg>
  ) : (
    <Svg {...props}>
      <circle cx="12" cy="8" r="4" />
      <path d="M4.5 20c.8-3.6 3.9-5.8 7.5-5.8s6.7 2.2 7.5 5.8" />
    </Svg>
  );
