import { backButton, init, miniApp, on, swipeBehavior, themeParams, viewport } from '@tma.js/sdk-react';
import type { LaunchContext } from './launch';
import { installLocalAnswers } from './local-answers';
import { trySdk, trySdkAsync } from './sdk-errors';

/** docs/product.md#limits: Android safe area is fixed. */
export const ANDROID_SAFE_AREA = { top: 23, bottom: 16 } as const;

const PHONES = new Set(['android', 'android_x', 'ios']);
export const isPhone = (platform: string) => PHONES.has(platform);

const setVar = (name: string, value: string) => document.documentElement.style.setProperty(name, value);

/** `--app-height` follows the viewport height (Telegram's when known, else the window's). */
const followViewportHeight = () => {
  const apply = () => {
    const height = viewport.isMounted() ? viewport.height() : 0;
    setVar('--app-height', `${height > 0 ? height : window.innerHeight}px`);
  };
  apply();
  window.addEventListener('resize', apply);
  trySdk('follow viewport', () => viewport.height.sub(apply));
};

const applySafeArea = (platform: string) => {
  if (platform === 'android' || platform === 'android_x') {
    setVar('--safe-top', `${ANDROID_SAFE_AREA.top}px`);
    setVar('--safe-bottom', `${ANDROID_SAFE_AREA.bottom}px`);
    return;
  }
  const apply = () => {
    if (!viewport.isMounted()) return;
    const fullscreen = viewport.isFullscreen();
    const top = fullscreen ? viewport.safeAreaInsetTop() + viewport.contentSafeAreaInsetTop() : 0;
    setVar('--safe-top', `${top}px`);
    setVar('--safe-bottom', `${viewport.safeAreaInsetBottom()}px`);
  };
  apply();
  trySdk('follow safe area', () => viewport.state.sub(apply));
};

/**
 * Starts the SDK and prepares the device (docs/product.md#behaviour): theme colours as CSS variables, fullscreen and
 * expand on phones, vertical swipes off, the height variable and the safe area.
 */
export const startTelegram = async (launch: LaunchContext): Promise<void> => {
  installLocalAnswers(launch.platform, launch.themeParams);
  trySdk('init', () => init());
  trySdk('theme', () => {
    themeParams.mount();
    themeParams.bindCssVars();
  });
  trySdk('mini app', () => {
    miniApp.mount();
    miniApp.bindCssVars();
  });
  trySdk('back button', () => backButton.mount.ifAvailable());
  followViewportHeight();
  await trySdkAsync('viewport', () => viewport.mount({ timeout: 3000 }));
  trySdk('viewport variables', () => viewport.bindCssVars());
  if (isPhone(launch.platform)) {
    if (viewport.requestFullscreen.isAvailable() && !viewport.isFullscreen()) {
      void trySdkAsync('fullscreen', () => viewport.requestFullscreen({ timeout: 3000 }));
    }
    trySdk('expand', () => viewport.expand.ifAvailable());
  }
  trySdk('swipes', () => {
    swipeBehavior.mount.ifAvailable();
    swipeBehavior.disableVertical.ifAvailable();
  });
  applySafeArea(launch.platform);
  trySdk('ready', () => miniApp.ready.ifAvailable());
};

/** docs/product.md#behaviour: the mini app becoming active again triggers a sign-in. */
export const onMiniAppActivated = (listener: () => void): (() => void) => {
  const off = trySdk('activation events', () =>
    on('visibility_changed', (event) => {
      if (event.is_visible) listener();
    }),
  );
  return off ?? (() => undefined);
};
