import type { ReactNode, SVGProps } from 'react';

type IconProps = SVGProps<SVGSVGElement> & { filled?: boolean };

const Svg = ({ children, filled, ...props }: IconProps & { children: ReactNode }) => (
  <svg
    viewBox="0 0 24 24"
    width="24"
    height="24"
    fill={filled ? 'currentColor' : 'none'}
    stroke="currentColor"
    strokeWidth={filled ? 0 : 1.8}
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    {...props}
  >
    {children}
  </svg>
);

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

export const BackIcon = (props: IconProps) => (
  <Svg {...props} strokeWidth={2.2}>
    <path d="M15 5l-7 7 7 7" />
  </Svg>
);

export const ChevronIcon = (props: IconProps) => (
  <Svg {...props} strokeWidth={2}>
    <path d="M9 5l7 7-7 7" />
  </Svg>
);

export const PlusIcon = (props: IconProps) => (
  <Svg {...props} strokeWidth={2.2}>
    <path d="M12 5v14M5 12h14" />
  </Svg>
);

export const ArrowDownIcon = (props: IconProps) => (
  <Svg {...props} strokeWidth={2}>
    <path d="M12 4v15M6 13l6 6 6-6" />
  </Svg>
);

export const ArrowUpIcon = (props: IconProps) => (
  <Svg {...props} strokeWidth={2}>
    <path d="M12 20V5M6 11l6-6 6 6" />
  </Svg>
);

export const SwapIcon = (props: IconProps) => (
  <Svg {...props} strokeWidth={2}>
    <path d="M4 8h14l-4-4M20 16H6l4 4" />
  </Svg>
);

export const CopyIcon = (props: IconProps) => (
  <Svg {...props}>
    <rect x="8" y="8" width="12" height="12" rx="2.5" />
    <path d="M16 8V6.5A2.5 2.5 0 0 0 13.5 4h-7A2.5 2.5 0 0 0 4 6.5v7A2.5 2.5 0 0 0 6.5 16H8" />
  </Svg>
);

export const InfoIcon = (props: IconProps) => (
  <Svg {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 11v5M12 7.5v.5" />
  </Svg>
);

export const AlertIcon = (props: IconProps) => (
  <Svg {...props} strokeWidth={2}>
    <path d="M12 8v5M12 16.5v.5" />
    <path d="M10.3 3.9 2.6 17.5A2 2 0 0 0 4.3 20.5h15.4a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z" />
  </Svg>
);

export const ClockIcon = (props: IconProps) => (
  <Svg {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </Svg>
);

export const KeyIcon = (props: IconProps) => (
  <Svg {...props}>
    <circle cx="8" cy="15" r="4" />
    <path d="M11 12l8-8M16 7l2 2M14 9l2 2" />
  </Svg>
);

export const LinkIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1" />
    <path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />
  </Svg>
);

export const ChartIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M4 20V10M10 20V4M16 20v-7M22 20H2" />
  </Svg>
);

export const TreeIcon = (props: IconProps) => (
  <Svg {...props}>
    <rect x="9" y="3" width="6" height="5" rx="1.5" />
    <rect x="3" y="16" width="6" height="5" rx="1.5" />
    <rect x="15" y="16" width="6" height="5" rx="1.5" />
    <path d="M12 8v4M6 16v-2h12v2" />
  </Svg>
);

export const GiftIcon = (props: IconProps) => (
  <Svg {...props}>
    <rect x="3" y="8" width="18" height="5" rx="1.5" />
    <path d="M5 13v6.5A1.5 1.5 0 0 0 6.5 21h11a1.5 1.5 0 0 0 1.5-1.5V13M12 8v13" />
    <path d="M12 8S10.5 3.5 8 4s-1 4 4 4ZM12 8s1.5-4.5 4-4 1 4-4 4Z" />
  </Svg>
);

export const SupportIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M21 12a9 9 0 1 1-3.6-7.2" />
    <path d="M21 4.5 10 15l-3-3" />
  </Svg>
);

export const CoinIcon = (props: IconProps) => (
  <Svg {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M14.5 9.5c-.4-.9-1.4-1.5-2.5-1.5-1.5 0-2.5.8-2.5 2s1 1.6 2.5 2 2.5.8 2.5 2-1 2-2.5 2c-1.1 0-2.1-.6-2.5-1.5M12 6.5V8M12 16v1.5" />
  </Svg>
);
