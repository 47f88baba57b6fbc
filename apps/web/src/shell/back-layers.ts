import { useEffect, useRef } from 'react';

/** What the back control closes before it leaves the screen (a sheet over a list), newest last. */
const layers: Array<() => void> = [];

/** Closes the newest open layer; false when none is open (the back control then goes back). */
export const closeTopLayer = (): boolean => {
  const top = layers.at(-1);
  if (!top) return false;
  top();
  return true;
};

/**
 * While the calling component is mounted, Telegram's BackButton (and Android's back key, which
 * Telegram reports as the same event) closes it instead of leaving the screen under it.
 */
export const useBackLayer = (close: () => void) => {
  const latest = useRef(close);
  latest.current = close;
  useEffect(() => {
    const layer = () => latest.current();
    layers.push(layer);
    return () => {
      const index = layers.lastIndexOf(layer);
      if (index >= 0) layers.splice(index, 1);
    };
  }, []);
};

/** Forms holding unsaved input right now (`useClosingConfirmation` counts them). */
let unsavedForms = 0;

/** Counts one form holding unsaved input until the returned function is called. */
export const holdUnsavedInput = (): (() => void) => {
  unsavedForms += 1;
  let held = true;
  return () => {
    if (held) unsavedForms -= 1;
    held = false;
  };
};

/**
 * One step back: with unsaved input on screen it asks first (`ask`, false: stay), as closing the
 * app does; then the newest layer closes, else the screen is left (`leave`).
 */
export const stepBack = async (leave: () => void, ask: () => Promise<boolean>): Promise<void> => {
  if (unsavedForms > 0 && !(await ask())) return;
  if (!closeTopLayer()) leave();
};
