import { useEffect } from 'react';
import { holdUnsavedInput } from '../shell/back-layers';
import { useStore } from '../state/create-store';
import { nativeControlsStore } from './native-controls';
import { loadedTelegramSdk } from './sdk';
import { trySdk } from './sdk-errors';

/** Forms holding unsaved input right now; Telegram's confirmation is on while any does. */
let unsavedForms = 0;

/**
 * `closing` is native only once device setup has mounted it, so the SDK has loaded by then; nothing
 * here imports it, which keeps the SDK out of every screen with a form (docs/performance.md#web).
 */
const holdNative = () => {
  const closingBehavior = loadedTelegramSdk()?.closingBehavior;
  unsavedForms += 1;
  if (unsavedForms === 1) trySdk('closing confirmation', () => closingBehavior?.enableConfirmation());
  return () => {
    unsavedForms -= 1;
    if (unsavedForms === 0) trySdk('closing confirmation', () => closingBehavior?.disableConfirmation());
  };
};

const holdBrowser = () => {
  const ask = (event: BeforeUnloadEvent) => event.preventDefault();
  window.addEventListener('beforeunload', ask);
  return () => window.removeEventListener('beforeunload', ask);
};

/**
 * While a form holds unsaved input, closing the mini app asks first: Telegram's closing
 * confirmation inside Telegram, the browser's leave-page prompt elsewhere; and so does back
 * (`useStepBack`).
 */
export const useClosingConfirmation = (unsaved: boolean): void => {
  const native = useStore(nativeControlsStore).closing;
  useEffect(() => {
    if (!unsaved) return;
    return native ? holdNative() : holdBrowser();
  }, [native, unsaved]);
  useEffect(() => (unsaved ? holdUnsavedInput() : undefined), [unsaved]);
};
