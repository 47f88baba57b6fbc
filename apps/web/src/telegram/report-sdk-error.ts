import i18next from 'i18next';
import { showToast } from '../shell/toast-store';
import { sdkFailureOf } from './sdk-errors';

/**
 * A Telegram call the user asked for failed: they see the docs/errors.md text for the failure (unsupported
 * method, outside Telegram, invalid arguments, concurrent call, access denied) as a toast.
 */
export const reportSdkError = (label: string, error: unknown): void => {
  const failure = sdkFailureOf(error);
  console.warn(`Telegram: ${label} failed (${failure})`, error);
  showToast(i18next.t(`sdk.${failure}`), 'error');
};
