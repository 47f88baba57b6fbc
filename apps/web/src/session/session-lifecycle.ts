import { isApiError } from '../api/api-error';
import { loginFailureOf } from './login-failure';
import { failureKindOf, isTokenUsable, retryDelayMs } from './reauth-policy';
import { sessionStore } from './session-store';
import { REAUTH_INTERVAL_MS, signIn } from './sign-in';

/** Retries after failures to reach the server (docs/security.md#re-authorisation). */
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let retries = 0;
/** The failure the pending retry answers: triggers sharing one sign-in schedule one retry. */
let retrying: unknown;

const stopRetrying = () => {
  clearTimeout(retryTimer);
  retryTimer = undefined;
  retries = 0;
  retrying = undefined;
};

const scheduleRetry = (error: unknown) => {
  if (error === retrying) return;
  clearTimeout(retryTimer);
  retrying = error;
  const delay = retryDelayMs(retries, { retryAfterMs: isApiError(error) ? error.retryAfterMs : undefined });
  retries += 1;
  retryTimer = setTimeout(() => attemptSignIn(`retry ${retries}`), delay);
};

/**
 * One sign-in attempt; a failure is already shown by the session, here it is only logged. A
 * failure to reach the server (the network, a 5xx, a 429) is retried with back-off while the
 * session keeps working on its token; a refusal is not. None once the user signed out on all
 * devices: this page's launch data is refused from then on.
 */
export const attemptSignIn = (reason: string) => {
  if (sessionStore.get().status === 'ended') return;
  signIn().then(stopRetrying, (error: unknown) => {
    console.warn(`Sign-in (${reason}) failed: ${loginFailureOf(error)}`);
    if (failureKindOf(error) === 'transient' && sessionStore.get().status !== 'ended') scheduleRetry(error);
    else stopRetrying();
  });
};

/**
 * The token expires while renewals keep failing: the app stops calling with it and says it cannot
 * reach the server (status `unreachable`), and tries again at once.
 */
const watchExpiry = (): (() => void) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let watched: number | null = null;
  const onExpired = () => {
    const state = sessionStore.get();
    if (state.status !== 'valid' || isTokenUsable(state.expiresAt, Date.now())) return;
    sessionStore.set((current) => ({ ...current, status: 'unreachable', isAuthenticated: false }));
    attemptSignIn('token expired');
  };
  const unsubscribe = sessionStore.subscribe(() => {
    const { expiresAt } = sessionStore.get();
    if (expiresAt === watched) return;
    watched = expiresAt;
    clearTimeout(timer);
    if (expiresAt !== null) timer = setTimeout(onExpired, Math.max(0, expiresAt - Date.now()));
  });
  return () => {
    unsubscribe();
    clearTimeout(timer);
  };
};

/**
 * docs/product.md#behaviour: sign in on start, every 540 s and when the page becomes visible; the Telegram module adds
 * "when the mini app becomes active" once it has loaded (see main.tsx).
 */
export const startSessionLifecycle = (): (() => void) => {
  const stopWatching = watchExpiry();
  attemptSignIn('start');
  const timer = setInterval(() => attemptSignIn('timer'), REAUTH_INTERVAL_MS);
  const onVisibility = () => {
    if (document.visibilityState === 'visible') attemptSignIn('page visible');
  };
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisibility);
    stopWatching();
    stopRetrying();
  };
};
