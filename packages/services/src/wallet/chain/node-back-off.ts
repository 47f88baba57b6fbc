/**
 * Back-off for a rate-limited TRON node (docs/wallet.md#within-trongrids-budget). TronGrid
 * ("Rate Limits", developers.tron.network/reference/rate-limits) meters each API key by a daily
 * quota and a per-second frequency; over them it refuses requests with 429, 403 (the key
 * suspended, its `Error` text naming the penalty: "… the query server is suspended for 30s") or
 * 503. On any of them nothing more is sent until the wait passes: the Retry-After header when
 * there is one (RFC 9110 §10.2.3: seconds or an HTTP date), else the seconds the text names, else
 * an exponential wait (5 s doubling, at most 5 min) that a successful answer resets.
 */

/** The statuses TronGrid answers a spent budget with. */
export const RATE_LIMIT_STATUSES: ReadonlySet<number> = new Set([429, 403, 503]);

const FIRST_WAIT_MS = 5_000;
const LONGEST_WAIT_MS = 5 * 60_000;

/** The node refused (or would refuse) for its request budget: nothing is sent before `resumeAt`. */
export class TronNodeBusyError extends Error {
  override name = 'TronNodeBusyError';
  constructor(
    /** The refusal's HTTP status (429, 403, 503). */
    readonly status: number,
    /** When requests may go out again (ms since the epoch). */
    readonly resumeAt: number,
    /** True when the node answered this request so; false when it was held back unsent. */
    readonly sent: boolean,
  ) {
    super(
      sent
        ? `the TRON node refused the request (HTTP ${status}): waiting until ${new Date(resumeAt).toISOString()}`
        : `the TRON node asked to wait until ${new Date(resumeAt).toISOString()}: request not sent`,
    );
  }
}

/** Retry-After as milliseconds from `now`: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export const retryAfterMs = (header: unknown, now: number): number | undefined => {
  if (typeof header !== 'string' || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
};

/** The penalty TronGrid names in its refusal's text ("suspended for 30s"), in ms. */
export const suspensionMs = (body: unknown): number | undefined => {
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? '');
  const match = /suspended for (\d+)\s*s/i.exec(text);
  return match ? Number(match[1]) * 1000 : undefined;
};

export type NodeBackOff = {
  /** Throws TronNodeBusyError (unsent) while a wait is in force. */
  beforeRequest(): void;
  /** A refusal for the budget: starts the wait and returns the error to throw. */
  refused(status: number, retryAfter: unknown, body: unknown): TronNodeBusyError;
  /** A request answered: the next refusal waits the shortest time again. */
  answered(): void;
  /** When requests may go out again (0: now). */
  resumeAt(): number;
};

export const createNodeBackOff = (now: () => number = Date.now): NodeBackOff => {
  let resumeAt = 0;
  let strikes = 0;
  let lastStatus = 0;
  return {
    beforeRequest: () => {
      if (now() < resumeAt) throw new TronNodeBusyError(lastStatus, resumeAt, false);
    },
    refused: (status, retryAfter, body) => {
      const at = now();
      strikes += 1;
      const exponential = Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** (strikes - 1));
      const wait = retryAfterMs(retryAfter, at) ?? suspensionMs(body) ?? exponential;
      lastStatus = status;
      resumeAt = Math.max(resumeAt, at + wait);
      return new TronNodeBusyError(status, resumeAt, true);
    },
    answered: () => {
      strikes = 0;
    },
    resumeAt: () => resumeAt,
  };
};
