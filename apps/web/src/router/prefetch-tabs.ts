import { sessionStore } from '../session/session-store';
import { whenIdle } from '../shell/when-idle';
import { ROUTES } from './route-table';
import { type AppRouter, preloadScreenCode } from './router';

/** The tabs besides the panel (docs/product.md#screens); build/first-screen.ts names the same screens. */
const TAB_PATHS = [ROUTES.wallet.path, ROUTES.portfolio.path, ROUTES.partners.path, ROUTES.profile.path];

/**
 * docs/performance.md#web: the tabs' code that index.html did not preload with the first screen is
 * fetched once the first screen is up and the Telegram SDK has arrived (so it competes with neither),
 * in an idle moment, for a signed-in user: a tap on any tab then opens it without a loader.
 */
export const prefetchTabScreens = async (router: AppRouter): Promise<void> => {
  await whenIdle(2000);
  if (sessionStore.get().status !== 'valid') return;
  for (const path of TAB_PATHS) preloadScreenCode(router, path);
};
