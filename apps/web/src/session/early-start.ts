/** A request as the page sent it, and its answer (a rejection when the network failed). */
export type EarlyRequest = { method: string; url: string; headers: Record<string, string> };
type EarlyAnswer = EarlyRequest & { response: Promise<Response> };

/**
 * What index.html's inline script started before the app's code arrived (docs/performance.md#web):
 * the launch parameters (in the demo, fetched and put into the URL hash), the sign-in request and,
 * once sign-in has answered, the initial load's requests. The app waits for the first and takes
 * each of the others once, as if it had sent it itself.
 */
type EarlyStart = {
  launch?: Promise<string | null>;
  login?: Promise<{ rawInitData: string; response: Response } | null>;
  initialLoad?: Promise<EarlyAnswer[] | null>;
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

const sameRequest = (a: EarlyRequest, b: EarlyRequest): boolean => {
  const names = Object.keys(a.headers);
  return (
    a.method === b.method &&
    a.url === b.url &&
    names.length === Object.keys(b.headers).length &&
    names.every((name) => a.headers[name] === b.headers[name])
  );
};

/**
 * The answer to a request the page sent with the same method, URL and headers (so with the same
 * bearer token), once; null when it sent no such request. The caller handles it as the answer to
 * its own call, and never sends that request again: the server has already counted it against
 * the contract's rate limit.
 */
export const takeEarlyAnswer = async (request: EarlyRequest): Promise<Response | null> => {
  const pending = usable()?.initialLoad;
  if (!pending || !request.headers.Authorization) return null;
  const answers = await pending.catch(() => null);
  const index = answers?.findIndex((answer) => sameRequest(answer, request)) ?? -1;
  const [answer] = index >= 0 ? (answers?.splice(index, 1) ?? []) : [];
  return answer ? answer.response : null;
};

/** After the initial load the page's answers are no longer fresh: later calls go to the server. */
export const forgetEarlyAnswers = (): void => {
  const early = usable();
  if (early) early.initialLoad = undefined;
};
