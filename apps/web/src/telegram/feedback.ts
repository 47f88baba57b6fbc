/**
 * Haptic feedback for what the user just did — success, error, a changed selection — without the
 * SDK in the calling chunk (the toasts live in the entry): the haptics module loads on first use.
 */
export type Feedback = 'success' | 'error' | 'warning' | 'selection';

export const feedback = (kind: Feedback): void => {
  void import('./haptics').then(({ hapticFeedbackFor }) => hapticFeedbackFor(kind));
};
