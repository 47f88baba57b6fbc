import { reportSdkError } from './report-sdk-error';
import { loadedTelegramSdk, loadTelegramSdk, type TelegramSdk } from './sdk';

/** docs/product.md#validation: only t.me links open as Telegram links (chats, bots, invoices). */
export const isTelegramLink = (url: string): boolean => {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' && parsed.hostname === 't.me';
  } catch {
    return false;
  }
};

const openWith = ({ openLink, openTelegramLink }: TelegramSdk, url: string): void => {
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

/**
 * Opens a link the way Telegram expects; a plain new tab when the SDK cannot. The SDK is not
 * imported here (it loads after the first screen: docs/performance.md#web); a tap before it has
 * loaded waits for it.
 */
export const openExternal = (url: string): void => {
  const sdk = loadedTelegramSdk();
  if (sdk) {
    openWith(sdk, url);
    return;
  }
  loadTelegramSdk().then(
    (loaded) => openWith(loaded, url),
    () => window.open(url, '_blank', 'noopener,noreferrer'),
  );
};
