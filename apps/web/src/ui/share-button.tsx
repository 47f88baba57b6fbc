import type { ReactNode } from 'react';
import { shareInvite, telegramShareUrl } from '../telegram/share';
import { ShareIcon } from './icons';

/**
 * Shares an invitation through Telegram. A real link to Telegram's share page (so it can be read,
 * long-pressed or opened in a new tab); a tap uses the client's own share sheet when it has one.
 */
export const ShareButton = ({ url, text, children }: { url: string; text: string; children: ReactNode }) => (
  <a
    className="button button--primary button--block"
    href={telegramShareUrl(url, text)}
    target="_blank"
    rel="noopener noreferrer"
    data-testid="share-invite"
    onClick={(event) => {
      event.preventDefault();
      shareInvite(url, text);
    }}
  >
    <ShareIcon />
    {children}
  </a>
);
