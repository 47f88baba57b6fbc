import { emitEvent, mockTelegramEnv } from '@tma.js/sdk-react';
import { hasTelegramHost, rememberHostAtStart } from './host';

const NO_INSETS = { top: 0, bottom: 0, left: 0, right: 0 };

type Answer = (name: string) => boolean;

const later = (fn: () => void) => setTimeout(fn, 0);

/** Theme and safe-area requests, answered from the launch parameters (docs/product.md#behaviour: macOS). */
const themeAndSafeArea =
  (themeParams: Record<string, string>): Answer =>
  (name) => {
    if (name === 'web_app_request_theme') {
      later(() => emitEvent('theme_changed', { theme_params: themeParams } as never));
      return true;
    }
    if (name === 'web_app_request_safe_area') {
      later(() => emitEvent('safe_area_changed', NO_INSETS));
      return true;
    }
    if (name === 'web_app_request_content_safe_area') {
      later(() => emitEvent('content_safe_area_changed', NO_INSETS));
      return true;
    }
    return false;
  };

/** With no Telegram client at all (the demo in a browser) the viewport and fullscreen too. */
const browserOnly: Answer = (name) => {
  if (name === 'web_app_request_viewport') {
    later(() =>
      emitEvent('viewport_changed', {
        height: window.innerHeight,
        width: window.innerWidth,
        is_expanded: true,
        is_state_stable: true,
      }),
    );
    return true;
  }
  if (name === 'web_app_request_fullscreen') {
    later(() => emitEvent('fullscreen_failed', { error: 'UNSUPPORTED' }));
    return true;
  }
  return true;
};

/**
 * The macOS client leaves theme and safe-area requests unanswered, and an ordinary browser has no
 * client to answer anything: those requests are answered locally instead (docs/product.md#behaviour).
 */
export const installLocalAnswers = (platform: string, themeParams: Record<string, string>): void => {
  const hosted = hasTelegramHost();
  rememberHostAtStart(hosted);
  if (hosted && platform !== 'macos') return;
  const theme = themeAndSafeArea(themeParams);
  mockTelegramEnv({
    onEvent: (event, next) => {
      if (theme(event.name)) return;
      if (!hosted && browserOnly(event.name)) return;
      next();
    },
  });
};
