import { isInsideTelegram } from './host';
import { fitPopup, popupProblems } from './popup-params';
import { reportSdkError } from './report-sdk-error';
import { loadTelegramSdk } from './sdk';
import { sdkFailureOf } from './sdk-errors';

export type ConfirmOptions = { title?: string; message: string; confirmText: string; destructive?: boolean };

/**
 * A yes/no question through Telegram's popup (within the docs/product.md#validation limits) inside
 * a Telegram client, else the browser's: the demo's stand-in client has no popup to show.
 */
export const confirmAction = async (options: ConfirmOptions): Promise<boolean> => {
  const params = fitPopup({
    ...(options.title ? { title: options.title } : {}),
    message: options.message,
    buttons: [
      { id: 'confirm', type: options.destructive ? 'destructive' : 'default', text: options.confirmText },
      { id: 'cancel', type: 'cancel' },
    ],
  });
  const popup =
    isInsideTelegram() && popupProblems(params).length === 0
      ? (await loadTelegramSdk().catch(() => undefined))?.popup
      : undefined;
  if (popup?.show.isAvailable()) {
    try {
      return (await popup.show(params as Parameters<typeof popup.show>[0])) === 'confirm';
    } catch (error) {
      reportSdkError('popup', error);
      // A popup already open (concurrent call) means the user is answering that one.
      if (sdkFailureOf(error) === 'concurrentCall') return false;
    }
  }
  return window.confirm(options.message);
};
