import type { Redis } from 'ioredis';

/**
 * A small key/value cache of JSON values with a time to live: Redis when the process has one
 * (every API replica shares it), a map in this process otherwise (embedded mode). Entries are
 * keyed by what they were computed from, so a change of the inputs is a miss, never a stale hit.
 */
export type Cache = {
  get: <T>(key: string) => Promise<T | undefined>;
  set: (key: string, value: unknown, ttlMs: number) => Promise<void>;
};

/** At most this many entries in process; the oldest go first (Map keeps insertion order). */
const MEMORY_CACHE_MAX = 5_000;

export const createMemoryCache = (now: () => number = Date.now): Cache => {
  const entries = new Map<string, { json: string; until: number }>();
  return {
    get: async <T>(key: string) => {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.until <= now()) {
        entries.delete(key);
        return undefined;
      }
      return JSON.parse(entry.json) as T;
    },
    set: async (key, value, ttlMs) => {
      entries.delete(key);
      entries.set(key, { json: JSON.stringify(value), until: now() + ttlMs });
      if (entries.size > MEMORY_CACHE_MAX) entries.delete(entries.keys().next().value as string);
    },
  };
};

/** A cache in Redis under `prefix`; a Redis failure is a miss (the caller computes), never an error. */
export const createRedisCache = (redis: Redis, prefix: string): Cache => ({
  get: async <T>(key: string) => {
    const json = await redis.get(`${prefix}cache:${key}`).catch(() => null);
    return json === null ? undefined : (JSON.parse(json) as T);
  },
  set: async (key, value, ttlMs) => {
    await redis.set(`${prefix}cache:${key}`, JSON.stringify(value), 'PX', ttlMs).catch(() => undefined);
  },
});
