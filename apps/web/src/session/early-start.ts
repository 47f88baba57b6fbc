/**
 * What index.html's inline script started before the app's code arrived (docs/performance.md#web):
 * the launch parameters (in the demo, fetched and put into the URL hash) and the sign-in request.
 * The app waits for the first and takes the second once, as if it had sent it itself.
 */
type EarlyStart = {
  launch?: Promise<string | null>;
  login?: Promise<{ rawInitData: string; response: Response } | null>;
};

declare global {
  interface Window {
    __gridbotEarly?: EarlyStart;
  }
}

/** The inline script calls the page's own origin: with another API origin its answers are not ours. */
const usable = (): EarlyStart | undefined =>
  import.meta.env.VITE_API_BASE_URL ? undefined : window.__gridbotEarly;

/**
 * The launch parameters the inline script found (in the demo, after fetching them): a query
 * string, null when there are none, undefined when the page ran no such script.
 */
export const earlyLaunch = async (): Promise<string | null | undefined> => usable()?.launch;

/**
 * The answer to the sign-in the page sent for this initData, once; null when it sent none, sent it
 * for other launch data, or could not reach the server (the app then sends its own).
 */
export const takeEarlyLogin = async (rawInitData: string): Promise<Response | null> => {
  const early = usable();
  const login = early?.login;
  if (!early || !login) return null;
  early.login = undefined;
  const sent = await login.catch(() => null);
  return sent && sent.rawInitData === rawInitData ? sent.response : null;
};
