import { loginFailureOf } from './login-failure';
import { sessionStore } from './session-store';
import { REAUTH_INTERVAL_MS, signIn } from './sign-in';

/**
 * One sign-in attempt; a failure is already shown by the session, here it is only logged. None
 * once the user signed out on all devices: this page's launch data is refused from then on.
 */
export const attemptSignIn = (reason: string) => {
  if (sessionStore.get().status === 'ended') return;
  signIn().catch((error: unknown) => {
    console.warn(`Sign-in (${reason}) failed: ${loginFailureOf(error)}`);
  });
};

/**
 * docs/product.md#behaviour: sign in on start, every 540 s and when the page becomes visible; the Telegram module adds
 * "when the mini app becomes active" once it has loaded (see main.tsx).
 */
export const startSessionLifecycle = (): (() => void) => {
  attemptSignIn('start');
  const timer = setInterval(() => attemptSignIn('timer'), REAUTH_INTERVAL_MS);
  const onVisibility = () => {
    if (document.visibilityState === 'visible') attemptSignIn('page visible');
  };
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisibility);
  };
};
