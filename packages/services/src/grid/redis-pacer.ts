import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { exchangeRateLimitWaitSeconds, exchangeRateLimitWaits } from '@gridbot/metrics';
import type { Redis } from 'ioredis';

/**
 * One slot schedule per key in Redis: each request takes the next free start time and moves it on
 * by its cost. Atomic (Lua), so every worker replica using the same API key shares one budget.
 * Returns the reserved start time (epoch ms).
 */
const RESERVE = `
local now = tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
local nextFree = tonumber(redis.call('GET', KEYS[1]) or '0')
local start = math.max(now, nextFree)
redis.call('SET', KEYS[1], tostring(start + cost), 'PX', math.ceil(start + cost - now) + 60000)
return tostring(start)
`;

export type RedisPacer = {
  /** Reserves `costMs` of the key's budget and waits for its slot; resolves with the slot's start (epoch ms). */
  pace: (costMs: number) => Promise<number>;
};

/** A pacer for one API key (the key is hashed: it never appears in Redis). */
export const createRedisPacer = (redis: Redis, prefix: string, apiKeyId: string): RedisPacer => {
  const key = `${prefix}exrl:${createHash('sha256').update(apiKeyId).digest('hex').slice(0, 24)}`;
  return {
    pace: async (costMs) => {
      const start = Number(
        await redis.eval(RESERVE, 1, key, String(Date.now()), String(Math.max(0, costMs))),
      );
      const wait = start - Date.now();
      if (wait > 0) {
        exchangeRateLimitWaits.inc();
        exchangeRateLimitWaitSeconds.inc(wait / 1000);
        await sleep(wait);
      }
      return start;
    },
  };
};
