import { shareURL } from '@tma.js/sdk-react';
import { openExternal } from './links';
import { reportSdkError } from './report-sdk-error';

/** Telegram's share link: the chat picker with the link and text filled in (any client, any browser). */
export const telegramShareUrl = (url: string, text: string): string =>
  `https://t.me/share/url?url=${encodeURIComponent(url)}&text=${encodeURIComponent(text)}`;

/** Shares an invitation: Telegram's own share sheet inside Telegram, else its share link. */
export const shareInvite = (url: string, text: string): void => {
  try {
    if (shareURL.isAvailable()) {
      shareURL(url, text);
      return;
    }
  } catch (error) {
    reportSdkError('share', error);
  }
  openExternal(telegramShareUrl(url, text));
};
