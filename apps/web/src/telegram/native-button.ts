import { mainButton, secondaryButton } from '@tma.js/sdk-react';
import { useEffect, useRef } from 'react';
import { trySdk } from './sdk-errors';

export type NativeButtonKind = 'main' | 'secondary';

export type NativeButtonParams = {
  text: string;
  onClick: () => void;
  /** The action is running: Telegram shows its loader and ignores taps. */
  busy?: boolean | undefined;
  disabled?: boolean | undefined;
};

const setParams = (kind: NativeButtonKind, params: { isVisible: boolean } & Record<string, unknown>) =>
  trySdk(`${kind} button`, () =>
    kind === 'main' ? mainButton.setParams(params) : secondaryButton.setParams(params),
  );

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
    const button = kind === 'main' ? mainButton : secondaryButton;
    const off = trySdk(`${kind} button click`, () => button.onClick(() => onClick.current()));
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
