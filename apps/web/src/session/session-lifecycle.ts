import { onMiniAppActivated } from '../telegram/device';
import { loginFailureOf } from './login-failure';
import { REAUTH_INTERVAL_MS, signIn } from './sign-in';

const attempt = (reason: string) => {
  signIn().catch((error: unknown) => {
    console.warn(`Sign-in (${reason}) failed: ${loginFailureOf(error)}`);
  });
};

/** Spec §4: sign in on start, every 540 s, when the mini app becomes active and the page visible. */
export const startSessionLifecycle = (): (() => void) => {
  attempt('start');
  const timer = setInterval(() => attempt('timer'), REAUTH_INTERVAL_MS);
  const offActivated = onMiniAppActivated(() => attempt('mini app active'));
  const onVisibility = () => {
    if (document.visibilityState === 'visible') attempt('page visible');
  };
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    clearInterval(timer);
    offActivated();
    document.removeEventListener('visibilitychange', onVisibility);
  };
};
