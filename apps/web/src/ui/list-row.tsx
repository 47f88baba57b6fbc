import { Link, type LinkProps } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { ChevronIcon } from './icons';

type RowContentProps = {
  start?: ReactNode;
  title: ReactNode;
  subtitle?: ReactNode;
  end?: ReactNode;
  chevron?: boolean;
};

const RowContent = ({ start, title, subtitle, end, chevron }: RowContentProps) => (
  <>
    {start}
    <span className="row__body">
      <span className="row__title" style={{ display: 'block' }}>
        {title}
      </span>
      {subtitle ? (
        <span className="row__subtitle" style={{ display: 'block' }}>
          {subtitle}
        </span>
      ) : null}
    </span>
    {end !== undefined ? <span className="row__end">{end}</span> : null}
    {chevron ? <ChevronIcon className="row__chevron" /> : null}
  </>
);

/** A list row that navigates inside the app. */
export const LinkRow = ({ link, ...content }: RowContentProps & { link: LinkProps }) => (
  <Link className="row" {...link}>
    <RowContent chevron {...content} />
  </Link>
);

export const ButtonRow = ({ onClick, ...content }: RowContentProps & { onClick: () => void }) => (
  <button type="button" className="row" onClick={onClick}>
    <RowContent {...content} />
  </button>
);

export const Row = (content: RowContentProps) => (
  <div className="row" style={{ cursor: 'default' }}>
    <RowContent {...content} />
  </div>
);

export const Avatar = ({ name }: { name: string }) => (
  <span className="avatar" aria-hidden="true">
    {name.trim().slice(0, 2).toUpperCase() || '?'}
  </span>
);

/** Coins whose icon the build does not have: asked once per page load, then letters straight away. */
const missingIcons = new Set<string>();

const coinIconUrl = (coin: string) => `${import.meta.env.BASE_URL}coins/${coin.toLowerCase()}.svg`;

const CoinLetters = ({ coin }: { coin: string }) => (
  <span className={`avatar avatar--coin${coin.length > 3 ? ' avatar--small-text' : ''}`} aria-hidden="true">
    {coin.slice(0, 4)}
  </span>
);

/**
 * A coin's icon from the app's own bundle (docs/grid.md#adding-a-coin), else its symbol in a badge
 * (up to 4 characters, smaller type for longer symbols). Both take the same 38 px circle, so the
 * swap after a missing icon moves nothing; the image is decorative, the name stands beside it.
 */
export const CoinAvatar = ({ coin }: { coin: string }) => {
  const [failed, setFailed] = useState<string | null>(null);
  if (failed === coin || missingIcons.has(coin)) return <CoinLetters coin={coin} />;
  return (
    <span className="avatar avatar--coin-icon" aria-hidden="true">
      <img
        src={coinIconUrl(coin)}
        alt=""
        width={38}
        height={38}
        loading="lazy"
        decoding="async"
        onError={() => {
          missingIcons.add(coin);
          setFailed(coin);
        }}
      />
    </span>
  );
};

export const IconAvatar = ({ children }: { children: ReactNode }) => (
  <span className="avatar avatar--icon" aria-hidden="true">
    {children}
  </span>
);
