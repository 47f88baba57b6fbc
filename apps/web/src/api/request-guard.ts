import { ApiError } from './api-error';

/** docs/product.md#validation: the client request guard's message, the same text the server sends with a 429. */
export const TOO_MANY_REQUESTS = 'Too many requests. Please try again later.';

export type GuardLimit = { max: number; windowMs: number };

export type RequestGuard = {
  /** Counts one request for `key`; throws the 429 error object when the window is already full. */
  check: (key: string, limit: GuardLimit) => void;
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
    },
    reset: () => history.clear(),
  };
};
