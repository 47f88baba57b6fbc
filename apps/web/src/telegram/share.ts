import { openExternal } from './links';
import { reportSdkError } from './report-sdk-error';
import { loadedTelegramSdk, loadTelegramSdk, type TelegramSdk } from './sdk';

/** Telegram's share link: the chat picker with the link and text filled in (any client, any browser). */
export const telegramShareUrl = (url: string, text: string): string =>
  `https://t.me/share/url?url=${encodeURIComponent(url)}&text=${encodeURIComponent(text)}`;

const shareWith = ({ shareURL }: TelegramSdk, url: string, text: string): void => {
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

/**
 * Shares an invitation: Telegram's own share sheet inside Telegram, else its share link. The SDK is
 * not imported here (docs/performance.md#web); a tap before it has loaded waits for it.
 */
export const shareInvite = (url: string, text: string): void => {
  const sdk = loadedTelegramSdk();
  if (sdk) {
    shareWith(sdk, url, text);
    return;
  }
  loadTelegramSdk().then(
    (loaded) => shareWith(loaded, url, text),
    () => openExternal(telegramShareUrl(url, text)),
  );
};
