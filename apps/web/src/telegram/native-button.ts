import { useEffect, useRef } from 'react';
import { loadedTelegramSdk, type TelegramSdk } from './sdk';
import { trySdk } from './sdk-errors';

export type NativeButtonKind = 'main' | 'secondary';

export type NativeButtonParams = {
  text: string;
  onClick: () => void;
  /** The action is running: Telegram shows its loader and ignores taps. */
  busy?: boolean | undefined;
  disabled?: boolean | undefined;
};

/**
 * Telegram's button of `kind`. A kind is asked for only once device setup has mounted the buttons
 * (src/telegram/device.ts), so the SDK has loaded by then; nothing here imports it, which keeps
 * the SDK out of every screen with a form (docs/performance.md#web).
 */
const buttonOf = (kind: NativeButtonKind): TelegramSdk['mainButton'] | undefined => {
  const sdk = loadedTelegramSdk();
  return kind === 'main' ? sdk?.mainButton : sdk?.secondaryButton;
};

const setParams = (kind: NativeButtonKind, params: { isVisible: boolean } & Record<string, unknown>) =>
  trySdk(`${kind} button`, () => buttonOf(kind)?.setParams(params));

/**
 * Drives Telegram's MainButton or SecondaryButton while the calling form is on screen: its text,
 * loader and enabled state follow the form, a tap runs the form's latest `onClick`, and it hides
 * when the form leaves. `kind` null leaves Telegram's buttons alone (the page shows its own).
 */
export const useNativeButton = (kind: NativeButtonKind | null, params: NativeButtonParams): void => {
  const onClick = useRef(params.onClick);
  useEffect(() => {
    onClick.current = params.onClick;
  });
  useEffect(() => {
    if (!kind) return;
    const off = trySdk(`${kind} button click`, () => buttonOf(kind)?.onClick(() => onClick.current()));
    return () => {
      off?.();
      setParams(kind, { isVisible: false, isLoaderVisible: false });
    };
  }, [kind]);
  const { text, busy = false, disabled = false } = params;
  useEffect(() => {
    if (!kind) return;
    setParams(kind, {
      text,
      isVisible: true,
      isEnabled: !disabled && !busy,
      isLoaderVisible: busy,
    });
  }, [kind, text, busy, disabled]);
};
