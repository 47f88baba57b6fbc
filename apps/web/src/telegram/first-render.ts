/**
 * The moment React has put the first screen on the page. Telegram's `ready()` waits for it, so
 * Telegram's placeholder gives way to a painted app, never to an empty page. No SDK in here: the
 * entry marks it, the SDK chunk waits for it.
 */
let markFirstRender: () => void = () => undefined;

export const firstRender = new Promise<void>((resolve) => {
  markFirstRender = resolve;
});

export const markRendered = (): void => markFirstRender();
