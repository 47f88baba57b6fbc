import { createStore } from '../state/create-store';

/**
 * Which of Telegram's own controls stand in for the page's: only inside a Telegram client, once the
 * SDK has mounted them (a client too old for one keeps the page's). In an ordinary browser (the
 * demo) the page keeps all its own buttons. No SDK in here, so the entry can read it.
 */
export type NativeControls = { back: boolean; main: boolean; secondary: boolean; closing: boolean };

export const nativeControlsStore = createStore<NativeControls>({
  back: false,
  main: false,
  secondary: false,
  closing: false,
});
