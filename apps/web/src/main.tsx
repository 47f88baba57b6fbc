import './styles/base.css';
import './styles/shell.css';
import './styles/components.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createQueryClient } from './app';
import { guessLanguage } from './i18n/language';
import { initI18n } from './i18n/setup';
import { createAppRouter } from './router/router';
import { attemptSignIn, startSessionLifecycle } from './session/session-lifecycle';
import { handleUnauthorized, setLaunchContext } from './session/sign-in';
import { resolveLaunch } from './telegram/launch';

const start = async () => {
  const launch = await resolveLaunch();
  await initI18n(guessLanguage(launch?.user?.language_code ?? navigator.language));
  setLaunchContext(launch);
  if (launch) {
    // The SDK is a chunk of its own, loaded while the sign-in request is on its way.
    void import('./telegram/device').then(({ startTelegram, onMiniAppActivated }) => {
      onMiniAppActivated(() => attemptSignIn('mini app active'));
      return startTelegram(launch);
    });
  }

  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient);
  handleUnauthorized(() => {
    void router.navigate({ to: '/login' });
  });

  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <App router={router} queryClient={queryClient} />
    </StrictMode>,
  );
  startSessionLifecycle();
};

void start();
