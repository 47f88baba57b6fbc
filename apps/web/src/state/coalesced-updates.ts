/**
 * Changes of a settings object sent through a call limited to one request per window
 * (`POST /profile/notificate`: 1 / 1 s, docs/product.md#limits; `windowMs` is the client guard's,
 * a little longer): one request at a time, the next no sooner than a window after the last one
 * left, carrying every change made meanwhile — so
 * several quick toggles all reach the server instead of the second being refused as "too many
 * requests". A refusal gives the failed changes back (`onFailed`) unless newer ones replaced them;
 * a rate-limit refusal is sent again after the window instead. Changes still queued when the
 * screen closes are sent all the same.
 */
export type CoalescedUpdates<T extends object> = {
  /** Queues a change; later changes of the same key replace earlier unsent ones. */
  push: (patch: Partial<T>) => void;
};

type Options<T extends object> = {
  send: (patch: Partial<T>) => Promise<T>;
  windowMs: number;
  /** The server's answer: the whole settings after a request. */
  onSaved: (settings: T, patch: Partial<T>) => void;
  /** A request refused for good: its changes that nothing newer replaced. */
  onFailed: (patch: Partial<T>, error: unknown) => void;
  /** A refusal to send again later (the rate limit). */
  isRetryable: (error: unknown) => boolean;
  now?: () => number;
};

export const createCoalescedUpdates = <T extends object>(options: Options<T>): CoalescedUpdates<T> => {
  const now = options.now ?? Date.now;
  let pending: Partial<T> = {};
  let inFlight = false;
  let lastSentAt = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const settle = () => {
    inFlight = false;
    flush();
  };

  const sendNow = () => {
    const patch = pending;
    pending = {};
    inFlight = true;
    lastSentAt = now();
    options.send(patch).then(
      (settings) => {
        options.onSaved(settings, patch);
        settle();
      },
      (error: unknown) => {
        // Changes queued since then are newer than the refused ones: they win.
        const unreplaced = Object.fromEntries(
          Object.entries(patch).filter(([key]) => !(key in pending)),
        ) as Partial<T>;
        if (options.isRetryable(error)) pending = { ...unreplaced, ...pending };
        else if (Object.keys(unreplaced).length > 0) options.onFailed(unreplaced, error);
        settle();
      },
    );
  };

  function flush() {
    if (inFlight || timer !== undefined || Object.keys(pending).length === 0) return;
    const wait = lastSentAt + options.windowMs - now();
    if (wait <= 0) {
      sendNow();
      return;
    }
    timer = setTimeout(() => {
      timer = undefined;
      flush();
    }, wait);
  }

  return {
    push: (patch) => {
      pending = { ...pending, ...patch };
      flush();
    },
  };
};
