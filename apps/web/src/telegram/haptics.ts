import type { Feedback } from './feedback';
import { loadedTelegramSdk } from './sdk';

/** docs/product.md#limits: tab taps vibrate [100,50,100,50,100] where Telegram haptics are unavailable. */
export const TAB_VIBRATION_PATTERN: readonly number[] = [100, 50, 100, 50, 100];
export const DEFAULT_VIBRATION_PATTERN: readonly number[] = [100];

const vibrate = (pattern: readonly number[]) => {
  if (typeof navigator !== 'undefined' && typeof navigator.vibrate === 'function')
    navigator.vibrate([...pattern]);
};

/** Haptic feedback through Telegram, else the browser's vibration API. */
export const tapFeedback = (pattern: readonly number[] = TAB_VIBRATION_PATTERN): void => {
  // Before device setup has loaded the SDK there is no Telegram haptics to ask.
  const hapticFeedback = loadedTelegramSdk()?.hapticFeedback;
  try {
    if (hapticFeedback?.impactOccurred.isAvailable()) {
      hapticFeedback.impactOccurred('light');
      return;
    }
  } catch {
    // fall through to the vibration fallback
  }
  vibrate(pattern);
};

/** Vibration fallbacks: one short pulse for a selection, a double pulse for an error. */
const FEEDBACK_VIBRATION: Record<Feedback, readonly number[]> = {
  success: [40],
  warning: [60],
  error: [60, 60, 60],
  selection: [10],
};

/** Telegram's notification or selection haptics, else the browser's vibration API. */
export const hapticFeedbackFor = (kind: Feedback): void => {
  const hapticFeedback = loadedTelegramSdk()?.hapticFeedback;
  try {
    if (kind === 'selection' && hapticFeedback?.selectionChanged.isAvailable()) {
      hapticFeedback.selectionChanged();
      return;
    }
    if (kind !== 'selection' && hapticFeedback?.notificationOccurred.isAvailable()) {
      hapticFeedback.notificationOccurred(kind);
      return;
    }
  } catch {
    // fall through to the vibration fallback
  }
  vibrate(FEEDBACK_VIBRATION[kind]);
};
