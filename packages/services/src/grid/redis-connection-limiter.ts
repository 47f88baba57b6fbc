import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type ConnectionLimit,
  type ConnectionLimiter,
  createMemoryConnectionLimiter,
} from '@gridbot/exchange';
import type { Redis } from 'ioredis';

/**
 * One sliding log of connection attempts on Redis's clock: drop the attempts older than the window,
 * take one if the window has room (returns 0), else answer how long until the oldest leaves it.
 */
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return tonumber(oldest[2]) + window - now + 1
`;

/**
 * The installation's user data connection attempts to one venue, shared by every worker through
 * Redis (Binance counts them per IP: docs/venues/binance.md#user-data-stream). A worker that cannot
 * reach Redis paces itself in memory at a tenth of the limit until it can: it may then not know
 * what the others spend, and a Redis outage must not stop the streams.
 */
export const createRedisConnectionLimiter = (
  redis: Redis,
  prefix: string,
  venue: string,
  limit: ConnectionLimit,
): ConnectionLimiter => {
  const key = `${prefix}wsconn:${venue}`;
  const fallback = createMemoryConnectionLimiter({
    attempts: Math.max(1, Math.floor(limit.attempts / 10)),
    windowMs: limit.windowMs,
  });
  return {
    acquire: async () => {
      for (;;) {
        let wait: number;
        try {
          const member = `${Date.now()}:${randomBytes(6).toString('hex')}`;
          wait = Number(
            await redis.eval(TAKE, 1, key, String(limit.windowMs), String(limit.attempts), member),
          );
        } catch {
          return fallback.acquire();
        }
        if (wait <= 0) return;
        // Waiters of many workers wake spread out, not all on the same millisecond.
        await sleep(wait + Math.random() * Math.min(1000, limit.windowMs / 10));
      }
    },
  };
};
