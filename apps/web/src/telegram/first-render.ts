/**
 * The moment React has put a screen on the page, not a loader: the first commit with no
 * `FullScreenLoader` mounted. Telegram's `ready()` waits for it, so Telegram's placeholder gives
 * way to a painted app, never to an empty page or a spinner; the SDK itself is loaded then
 * (docs/performance.md#web). No SDK in here: the entry marks it, the SDK chunk waits for it.
 */
let markFirstRender: () => void = () => undefined;

export const firstRender = new Promise<void>((resolve) => {
  markFirstRender = resolve;
});

let committed = false;
let loadersOnPage = 0;

/**
 * Checked once the current commit's effects have all run: when one loader gives way to another
 * (the session's to the initial load's), the count passes through zero between the old one's
 * cleanup and the new one's effect, and that is not a screen.
 */
const settle = () => {
  queueMicrotask(() => {
    if (committed && loadersOnPage === 0) markFirstRender();
  });
};

/** The root layout's first commit. */
export const markRendered = (): void => {
  committed = true;
  settle();
};

/** A full-screen loader is on the page until the returned function runs (on its unmount). */
export const showingLoader = (): (() => void) => {
  loadersOnPage += 1;
  return () => {
    loadersOnPage -= 1;
    settle();
  };
};
