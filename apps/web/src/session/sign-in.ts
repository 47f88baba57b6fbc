import { login } from '@gridbot/contracts';
import { ApiError } from '../api/api-error';
import { callApi, readApiResponse, setUnauthorizedHandler } from '../api/call-api';
import { showErrorModal } from '../shell/error-modal-store';
import type { LaunchContext } from '../telegram/launch';
import { clearAuthCookies, saveAuthCookies } from './auth-cookies';
import { takeEarlyLogin } from './early-start';
import { loginFailureOf } from './login-failure';
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
      loggedIn: true,
      isAuthenticated: true,
      failure: null,
    });
    return session.user;
  } catch (error) {
    const failure = loginFailureOf(error);
    sessionStore.set((state) => ({ ...state, status: 'invalid', isAuthenticated: false, failure }));
    showErrorModal({ kind: 'login', failure });
    throw error;
  }
};

/**
 * Signs in with the launch data (docs/product.md#behaviour). Concurrent triggers (start, timer, visibility) share one
 * call. Failure marks the session invalid, opens the error modal and rethrows.
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
    loggedIn: false,
    isAuthenticated: false,
    failure: null,
  }));
};
