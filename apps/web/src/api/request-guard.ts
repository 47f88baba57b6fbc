import { ApiError } from './api-error';

/** docs/product.md#validation: the client request guard's message, the same text the server sends with a 429. */
export const TOO_MANY_REQUESTS = 'Too many requests. Please try again later.';

export type GuardLimit = { max: number; windowMs: number };

export type RequestGuard = {
  /**
   * Counts one request for `key`; throws the 429 error object when the window is already full.
   * Call what it returns when the answer has come: the request then counts from that moment.
   */
  check: (key: string, limit: GuardLimit) => () => void;
  reset: () => void;
};

/**
 * Client request guard (docs/product.md#validation): a sliding window per key. A request is refused when the number
 * of requests in the window has reached the limit, so the server's own limit (the same numbers,
 * docs/product.md#limits) is never hit by this client.
 */
export const createRequestGuard = (now: () => number = Date.now): RequestGuard => {
  const history = new Map<string, number[]>();
  return {
    check: (key, { max, windowMs }) => {
      const at = now();
      const recent = (history.get(key) ?? []).filter((time) => at - time < windowMs);
      if (recent.length >= max) {
        history.set(key, recent);
        throw new ApiError({
          status: 429,
          code: 'RATE_LIMITED',
          message: TOO_MANY_REQUESTS,
          detail: TOO_MANY_REQUESTS,
        });
      }
      recent.push(at);
      history.set(key, recent);
      // The server counts a request when it arrives, which may be long after it left (a busy
      // server, a slow link) but never after its answer came back: counted from the answer, the
      // next request of this key cannot reach the server inside its window, however late this one
      // arrived there (docs/product.md#limits).
      return () => {
        const list = history.get(key);
        const index = list?.indexOf(at) ?? -1;
        if (list && index >= 0) list[index] = Math.max(now(), at);
        else history.set(key, [...(list ?? []), now()]);
      };
    },
    reset: () => history.clear(),
  };
};
