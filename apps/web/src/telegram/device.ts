import {
  backButton,
  closingBehavior,
  init,
  mainButton,
  miniApp,
  on,
  secondaryButton,
  swipeBehavior,
  themeParams,
  viewport,
} from '@tma.js/sdk-react';
import { firstRender } from './first-render';
import { isInsideTelegram } from './host';
import type { LaunchContext } from './launch';
import { installLocalAnswers } from './local-answers';
import { nativeControlsStore } from './native-controls';
import { safeAreaPadding } from './safe-area';
import { trySdk, trySdkAsync } from './sdk-errors';

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

/** The insets Telegram reports, on Android too; its fixed padding only when none are reported. */
const applySafeArea = (platform: string) => {
  const apply = () => {
    if (!viewport.isMounted()) return;
    // Read from the state itself: inside its own change listener the derived getters are stale.
    const state = viewport.state();
    const padding = safeAreaPadding(platform, {
      safe: state.safeAreaInsets,
      content: state.contentSafeAreaInsets,
      fullscreen: state.isFullscreen,
    });
    setVar('--safe-top', `${padding.top}px`);
    setVar('--safe-bottom', `${padding.bottom}px`);
  };
  apply();
  trySdk('follow safe area', () => viewport.state.sub(apply));
};

/**
 * Telegram's header and background take the page's background (`--bg`, the theme's secondary
 * background) and the bottom bar the tab bar's (the theme's background): the client's chrome and
 * the page read as one surface. Theme keys, so Telegram follows a theme change by itself.
 */
const paintChrome = () => {
  trySdk('header colour', () => miniApp.setHeaderColor.ifAvailable('secondary_bg_color'));
  trySdk('background colour', () => miniApp.setBgColor.ifAvailable('secondary_bg_color'));
  trySdk('bottom bar colour', () => miniApp.setBottomBarColor.ifAvailable('bg_color'));
};

/** Inside a Telegram client its own buttons replace the page's (docs/decisions.md#telegram-native-mini-app-issue-10). */
const mountNativeControls = () => {
  if (!isInsideTelegram()) return;
  trySdk('back button', () => backButton.mount.ifAvailable());
  trySdk('main button', () => mainButton.mount.ifAvailable());
  trySdk('secondary button', () => secondaryButton.mount.ifAvailable());
  trySdk('closing behaviour', () => closingBehavior.mount.ifAvailable());
  nativeControlsStore.set({
    back: backButton.isMounted(),
    main: mainButton.isMounted(),
    secondary: secondaryButton.isMounted(),
    closing: closingBehavior.isMounted(),
  });
};

/**
 * Starts the SDK and prepares the device (docs/product.md#behaviour): theme colours as CSS variables
 * (already set from the launch parameters before the first paint by index.html), Telegram's header,
 * background and bottom-bar colours, its native controls, `ready()` after the first render,
 * fullscreen and expand on phones, vertical swipes off, the height variable and the safe area.
 */
export const startTelegram = async (launch: LaunchContext): Promise<void> => {
  installLocalAnswers(launch.platform, launch.themeParams);
  trySdk('init', () => init());
  trySdk('theme', () => {
    themeParams.mount();
    themeParams.bindCssVars();
    // Native controls (inputs, scrollbars) follow a theme change, as index.html set them at start.
    themeParams.isDark.sub((dark) => {
      document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
    });
  });
  trySdk('mini app', () => {
    miniApp.mount();
    miniApp.bindCssVars();
  });
  paintChrome();
  mountNativeControls();
  // Telegram shows the app once it is painted: after React's first render, not after the viewport.
  void firstRender.then(() => trySdk('ready', () => miniApp.ready.ifAvailable()));
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
