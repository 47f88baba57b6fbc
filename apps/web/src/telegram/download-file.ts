import { isInsideTelegram } from './host';
import { openExternal } from './links';
import { reportSdkError } from './report-sdk-error';
import { loadTelegramSdk } from './sdk';
import { sdkFailureOf } from './sdk-errors';

/** Saves the file at `url` in a browser: a link with `download`, as if the user had tapped it. */
const saveThroughLink = (url: string, fileName: string) => {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
};

/**
 * Downloads a file that the client fetches itself (a signed link, docs/security.md#download-links).
 * Inside Telegram (Mini Apps 8.0+): Telegram's own download prompt (`downloadFile`, the
 * web_app_request_file_download event); a user who declines it has decided, not failed. An older
 * Telegram opens the link in the browser, which saves the attachment. Outside Telegram (the demo
 * in a browser): a plain download link.
 */
export const downloadFromUrl = async (url: string, fileName: string): Promise<void> => {
  if (!isInsideTelegram()) {
    saveThroughLink(url, fileName);
    return;
  }
  const sdk = await loadTelegramSdk().catch(() => undefined);
  if (!sdk?.downloadFile.isAvailable()) {
    openExternal(url);
    return;
  }
  try {
    await sdk.downloadFile(url, fileName);
  } catch (error) {
    if (sdkFailureOf(error) !== 'accessDenied') reportSdkError('download file', error);
  }
};
