import { login } from '@gridbot/contracts';
import { ApiError } from '../api/api-error';
import { callApi, readApiResponse, setUnauthorizedHandler } from '../api/call-api';
import { closeErrorModal, errorModalStore, showErrorModal } from '../shell/error-modal-store';
import type { LaunchContext } from '../telegram/launch';
import { clearAuthCookies, saveAuthCookies } from './auth-cookies';
import { AUTH_COOKIE_DEFAULTS } from './cookie';
import { takeEarlyLogin } from './early-start';
import { loginFailureOf } from './login-failure';
import { failureKindOf, isTokenUsable } from './reauth-policy';
import { type SessionUser, sessionStore } from './session-store';

/** docs/product.md#limits: re-authorisation interval. */
export const REAUTH_INTERVAL_MS = 540_000;

let launch: LaunchContext | null = null;
let onSignedIn: ((user: SessionUser) => void) | undefined;
let inFlight: Promise<SessionUser> | null = null;

export const setLaunchContext = (context: LaunchContext | null) => {
  launch = context;
};

/** Runs on every successful sign-in, before the session turns valid (the entry starts the initial load). */
export const setSignedInHandler = (handler: (user: SessionUser) => void) => {
  onSignedIn = handler;
};

/**
 * When the token stops signing calls, on this device's clock: its expiry as the server wrote it,
 * never later than its cookie (which lives as long, counted from now), so a clock behind the
 * server's does not keep a dead token.
 */
const localExpiryOf = (expiresAt: string): number =>
  Math.min(Date.parse(expiresAt), Date.now() + AUTH_COOKIE_DEFAULTS.maxAgeSeconds * 1000);

/** A failed sign-in shown at start (the server unreachable) is over once one succeeds. */
const closeLoginFailure = () => {
  if (errorModalStore.get()?.kind === 'login') closeErrorModal();
};

/**
 * A failed sign-in (docs/security.md#re-authorisation). A refusal ends the session and says why.
 * Not reaching the server ends nothing while the token this page holds still signs calls: the app
 * keeps working and the lifecycle retries; once that token has expired, the app says it cannot
 * reach the server and is retrying, never that the session is invalid. Before any session of this
 * page (at start, or after a 401 cleared the token), it is shown as a sign-in failure, once.
 */
const onFailure = (error: unknown) => {
  const state = sessionStore.get();
  const failure = loginFailureOf(error);
  if (failureKindOf(error) === 'transient') {
    const signedIn = (state.status === 'valid' || state.status === 'unreachable') && state.token !== null;
    if (signedIn && state.status === 'valid' && isTokenUsable(state.expiresAt, Date.now())) return;
    if (signedIn) {
      sessionStore.set((current) => ({ ...current, status: 'unreachable', isAuthenticated: false }));
      return;
    }
    if (state.status === 'invalid' && state.failure === failure) return;
  }
  sessionStore.set((current) => ({ ...current, status: 'invalid', isAuthenticated: false, failure }));
  showErrorModal({ kind: 'login', failure });
};

const signInOnce = async (): Promise<SessionUser> => {
  try {
    if (!launch)
      throw new ApiError({ status: 400, code: 'INIT_DATA_MISSING', message: 'initData отсутствует' });
    const user = launch.user;
    // The page's inline script may have sent this very call already (docs/performance.md#web).
    const early = await takeEarlyLogin(launch.rawInitData);
    const session = early
      ? await readApiResponse(login, early)
      : await callApi(login, {
          body: {
            ...(user ? { user_id: user.id } : {}),
            first_name: user?.first_name ?? '',
            last_name: user?.last_name ?? '',
            username: user?.username ?? '',
            _auth: launch.rawInitData,
          },
        });
    saveAuthCookies(session.token, session.user);
    onSignedIn?.(session.user);
    sessionStore.set({
      status: 'valid',
      user: session.user,
      token: session.token,
      expiresAt: localExpiryOf(session.expiresAt),
      loggedIn: true,
      isAuthenticated: true,
      failure: null,
    });
    closeLoginFailure();
    return session.user;
  } catch (error) {
    onFailure(error);
    throw error;
  }
};

/**
 * Signs in with the launch data (docs/product.md#behaviour). Concurrent triggers (start, timer, visibility) share one
 * call. A refusal marks the session invalid, opens the error modal and rethrows; a failure to reach
 * the server rethrows and leaves a working session working (docs/security.md#re-authorisation).
 */
export const signIn = (): Promise<SessionUser> => {
  if (sessionStore.get().status === 'ended') return Promise.reject(new Error('signed out on all devices'));
  inFlight ??= signInOnce().finally(() => {
    inFlight = null;
  });
  return inFlight;
};

/**
 * docs/product.md#behaviour: on any 401 the token is cleared, loggedIn becomes false and the user goes to login.
 * After "sign out on all devices" the session-ended screen stays: the launch data this page holds
 * can no longer sign in (docs/security.md#sessions).
 */
export const handleUnauthorized = (goToLogin: () => void) => {
  setUnauthorizedHandler(() => {
    clearAuthCookies();
    sessionStore.set((state) => ({ ...state, token: null, loggedIn: false }));
    if (sessionStore.get().status !== 'ended') goToLogin();
  });
};

/**
 * Every session of the account has ended, this one too (`POST /auth/logout_all`): the token is
 * dropped and the app shows the session-ended state; it signs in no more by itself, since the
 * server refuses the launch data this page was opened with.
 */
export const endSession = () => {
  clearAuthCookies();
  sessionStore.set((state) => ({
    ...state,
    status: 'ended',
    token: null,
    expiresAt: null,
    loggedIn: false,
    isAuthenticated: false,
    failure: null,
  }));
};
