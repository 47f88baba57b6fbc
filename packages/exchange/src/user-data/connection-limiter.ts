import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Paces the user data stream's connection attempts. Binance counts them per IP (300 per 5 minutes,
 * web-socket-api.md "Connection limits"; docs/venues/binance.md#user-data-stream), whichever
 * process of the installation makes them: distributed, one limiter in Redis serves every worker
 * (packages/services redis-connection-limiter.ts); embedded, this process's memory.
 */
export type ConnectionLimiter = {
  /** Takes one attempt of the window; resolves once the attempt may be made. */
  acquire: () => Promise<void>;
};

export type ConnectionLimit = { attempts: number; windowMs: number };

/**
 * The attempts of the last `windowMs` in this process (a sliding log, as the venue counts them).
 * Callers queue in order: an attempt waits until the oldest one in the window leaves it.
 */
export const createMemoryConnectionLimiter = (
  limit: ConnectionLimit,
  now: () => number = Date.now,
): ConnectionLimiter => {
  const attempts: number[] = [];
  let queue: Promise<void> = Promise.resolve();
  const take = async () => {
    for (;;) {
      const at = now();
      while (attempts.length > 0 && attempts[0]! <= at - limit.windowMs) attempts.shift();
      if (attempts.length < limit.attempts) {
        attempts.push(at);
        return;
      }
      await sleep(attempts[0]! + limit.windowMs - at + 1);
    }
  };
  return {
    acquire: () => {
      const turn = queue.then(take);
      queue = turn.catch(() => undefined);
      return turn;
    },
  };
};
