/** docs/product.md#limits: the Android padding when Telegram reports no insets at all. */
export const ANDROID_SAFE_AREA = { top: 23, bottom: 16 } as const;

export type Insets = { top: number; bottom: number; left: number; right: number };

export type ReportedInsets = {
  /** The device's safe area (notch, home indicator). */
  safe: Insets;
  /** Telegram's own controls over the content in fullscreen (close and menu buttons). */
  content: Insets;
  fullscreen: boolean;
};

const isAndroid = (platform: string) => platform === 'android' || platform === 'android_x';

const nothingReported = ({ safe, content }: ReportedInsets) =>
  [safe, content].every((insets) => insets.top === 0 && insets.bottom === 0);

/**
 * The content padding from what Telegram reports, on every platform: top = safe area + content
 * safe area while fullscreen (outside it, Telegram's header is above the page), bottom = both
 * bottoms. Android's fixed 23/16 px is only the fallback for a client that reports nothing
 * (docs/decisions.md#telegram-native-mini-app-issue-10).
 */
export const safeAreaPadding = (
  platform: string,
  reported: ReportedInsets,
): { top: number; bottom: number } => {
  if (isAndroid(platform) && nothingReported(reported)) return { ...ANDROID_SAFE_AREA };
  const { safe, content, fullscreen } = reported;
  return {
    top: fullscreen ? safe.top + content.top : 0,
    bottom: safe.bottom + content.bottom,
  };
};
