import type { QueryClient } from '@tanstack/react-query';
import type { SessionUser } from './session-store';

/** The calls and their contracts load with the first screen's code, not with the entry. */
const settled = (client: QueryClient, user: SessionUser): Promise<void> =>
  import('./initial-load')
    .then(({ runInitialLoad }) => runInitialLoad(client, user))
    .catch((error: unknown) => {
      console.warn('Initial load failed', error);
    });

/** The load the entry started for a user whose layout has not taken it yet. */
const early = new WeakMap<QueryClient, { uid: number; load: Promise<void>; done: boolean }>();

/**
 * Called by the entry the moment sign-in returns (docs/performance.md#web), so the calls do not
 * wait for the layout's and the screen's code to be loaded and rendered.
 */
export const startInitialLoad = (client: QueryClient, user: SessionUser): void => {
  const started = { uid: user.uid, load: settled(client, user), done: false };
  void started.load.then(() => {
    started.done = true;
  });
  early.set(client, started);
};

/**
 * Whether the load the entry started for this user has already settled: the layout then renders
 * the screen at once instead of a loader first (the page's own requests have usually been answered
 * before the code arrives).
 */
export const isInitialLoadSettled = (client: QueryClient, user: SessionUser): boolean => {
  const started = early.get(client);
  return started?.uid === user.uid && started.done;
};

/**
 * The user layout's initial load: the one the entry already started for this user, else a new one
 * (a layout mounted again after a return from the login screen loads afresh). Never rejects.
 */
export const takeInitialLoad = (client: QueryClient, user: SessionUser): Promise<void> => {
  const started = early.get(client);
  early.delete(client);
  return started?.uid === user.uid ? started.load : settled(client, user);
};
