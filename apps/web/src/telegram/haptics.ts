import { hapticFeedback } from '@tma.js/sdk-react';

/** docs/product.md#limits: tab taps vibrate [100,50,100,50,100] where Telegram haptics are unavailable. */
export const TAB_VIBRATION_PATTERN: readonly number[] = [100, 50, 100, 50, 100];
export const DEFAULT_VIBRATION_PATTERN: readonly number[] = [100];

const vibrate = (pattern: readonly number[]) => {
  if (typeof navigator !== 'undefined' && typeof navigator.vibrate === 'function')
    navigator.vibrate([...pattern]);
};

/** Haptic feedback through Telegram, else the browser's vibration API. */
export const tapFeedback = (pattern: readonly number[] = TAB_VIBRATION_PATTERN): void => {
  try {
    if (hapticFeedback.impactOccurred.isAvailable()) {
      hapticFeedback.impactOccurred('light');
      return;
    }
  } catch {
    // fall through to the vibration fallback
  }
  vibrate(pattern);
};
