import { openLink, openTelegramLink } from '@tma.js/sdk-react';
import { reportSdkError } from './report-sdk-error';

/** docs/product.md#validation: only t.me links open as Telegram links (chats, bots, invoices). */
export const isTelegramLink = (url: string): boolean => {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' && parsed.hostname === 't.me';
  } catch {
    return false;
  }
};

/** Opens a link the way Telegram expects; a plain new tab when the SDK cannot. */
export const openExternal = (url: string): void => {
  try {
    if (isTelegramLink(url) && openTelegramLink.isAvailable()) {
      openTelegramLink(url);
      return;
    }
    if (!isTelegramLink(url) && openLink.isAvailable()) {
      openLink(url);
      return;
    }
  } catch (error) {
    reportSdkError('open link', error);
  }
  window.open(url, '_blank', 'noopener,noreferrer');
};
