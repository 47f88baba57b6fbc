import { isApiError } from '../api/api-error';

/**
 * What a failed sign-in means for the session (docs/security.md#sessions, "Re-authorisation"):
 * - `refused`: the server said no (401, 403, a 4xx about the launch data): only new launch data
 *   helps, so the session ends and the failure is shown;
 * - `transient`: the answer never came or says "not now" (the network, a 5xx, 408, 429): the
 *   session goes on with the token it has while that is valid, and sign-in is tried again.
 */
export type FailureKind = 'refused' | 'transient';

export const failureKindOf = (error: unknown): FailureKind => {
  // Anything that is not the server's answer is the network (callApi wraps fetch's own errors).
  if (!isApiError(error)) return 'transient';
  if (error.status === 408 || error.status === 429 || error.status >= 500) return 'transient';
  return 'refused';
};

/** The first retry's wait; each further one doubles it up to the cap, then a random part of it. */
export const RETRY_BASE_MS = 1_000;
/** Under the re-authorisation interval, so a retry never waits longer than the next renewal would. */
export const RETRY_CAP_MS = 120_000;

/**
 * The wait before retry number `attempt` (0 for the first): exponential back-off with "equal
 * jitter" — half the step fixed, half random — so many clients cut off together (a restart, a
 * network blip at a provider) do not come back in one burst; never sooner than the server's
 * Retry-After.
 */
export const retryDelayMs = (
  attempt: number,
  options: { retryAfterMs?: number | undefined; random?: () => number } = {},
): number => {
  const step = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempt));
  const random = options.random ?? Math.random;
  const backOff = Math.round(step / 2 + random() * (step / 2));
  return Math.max(backOff, options.retryAfterMs ?? 0);
};

/** Whether a token that expires at `expiresAt` (epoch ms) still signs calls at `now`. */
export const isTokenUsable = (expiresAt: number | null, now: number): boolean =>
  expiresAt !== null && expiresAt > now;
