import './styles/base.css';
import './styles/shell.css';
import './styles/components.css';
import './styles/chart.css';
import './styles/wallet.css';
import './styles/partners.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createQueryClient } from './app';
import { guessLanguage } from './i18n/language';
import { initI18n } from './i18n/setup';
import { prefetchTabScreens } from './router/prefetch-tabs';
import { createAppRouter, preloadScreenCode } from './router/router';
import { attemptSignIn, startSessionLifecycle } from './session/session-lifecycle';
import { handleUnauthorized, setLaunchContext, setSignedInHandler } from './session/sign-in';
import { startInitialLoad } from './session/start-initial-load';
import { whenIdle } from './shell/when-idle';
import { firstRender } from './telegram/first-render';
import { resolveLaunch } from './telegram/launch';
import { loadTelegramSdk } from './telegram/sdk';

/**
 * The start, ordered so nothing waits for what it does not need (docs/performance.md#web): sign-in
 * leaves as soon as the launch data is known (in the demo the page's Link header has already asked
 * for it), before any other request; then the language and the screen's code load while it is on its
 * way; the initial load starts the moment sign-in returns, not when the screen has rendered.
 */
const start = async () => {
  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient);
  handleUnauthorized(() => {
    void router.navigate({ to: '/login' });
  });
  let initialLoadStarted = false;
  setSignedInHandler((user) => {
    if (initialLoadStarted) return;
    initialLoadStarted = true;
    startInitialLoad(queryClient, user);
  });

  const launch = await resolveLaunch();
  setLaunchContext(launch);
  startSessionLifecycle();
  const language = guessLanguage(launch?.user?.language_code ?? navigator.language);
  preloadScreenCode(router, location.pathname);
  // The SDK is a chunk of its own, loaded in the first idle moment once the first screen has
  // rendered: nothing before it needs the SDK (index.html has painted the theme), ready() follows
  // that render anyway, and evaluating it (~0.2 s on a phone) must not hold up the rest of the
  // first screen's render or a tap on a tab. The other tabs' code comes after it.
  const telegramLoaded = launch
    ? firstRender
        .then(() => whenIdle(1000))
        .then(() => Promise.all([import('./telegram/device'), loadTelegramSdk()]))
        .then(([{ startTelegram, onMiniAppActivated }]) => {
          onMiniAppActivated(() => attemptSignIn('mini app active'));
          void startTelegram(launch);
        })
    : firstRender;
  void telegramLoaded.then(
    () => prefetchTabScreens(router),
    () => undefined,
  );
  await initI18n(language);

  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  // A transition renders in slices, so the answer to sign-in is handled (and the initial load sent)
  // in between instead of after the whole first render (docs/performance.md#web).
  const reactRoot = createRoot(root);
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <App router={router} queryClient={queryClient} />
      </StrictMode>,
    );
  });
};

void start();
