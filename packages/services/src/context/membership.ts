import type { Redis } from 'ioredis';

/**
 * Who is alive in a group of processes (the workers sharing the order streams, docs/fleet.md#order-streams):
 * each member beats every few seconds with a time to live and gets the group's live members back.
 * Redis when the process has one (every replica shares it, expiry on Redis's own clock so the
 * hosts' clocks need not agree), a map in this process otherwise (the embedded mode is one member).
 */
export type Membership = {
  /** Keeps `member` alive in `group` for `ttlMs`; answers the live members, `member` among them, sorted. */
  beat: (group: string, member: string, ttlMs: number) => Promise<string[]>;
  /** `member` leaves now (a clean stop): the others take its share at their next beat. */
  leave: (group: string, member: string) => Promise<void>;
};

export const createMemoryMembership = (now: () => number = Date.now): Membership => {
  const groups = new Map<string, Map<string, number>>();
  return {
    beat: async (group, member, ttlMs) => {
      const members = groups.get(group) ?? new Map<string, number>();
      groups.set(group, members);
      const at = now();
      members.set(member, at + ttlMs);
      for (const [name, until] of members) if (until <= at) members.delete(name);
      return [...members.keys()].sort();
    },
    leave: async (group, member) => {
      groups.get(group)?.delete(member);
    },
  };
};

// One round trip, Redis's clock: the member's expiry as its score, expired members dropped, the key
// itself gone when nobody beats any more.
const BEAT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('PEXPIRE', KEYS[1], ttl * 4)
return redis.call('ZRANGE', KEYS[1], 0, -1)
`;

export const createRedisMembership = (redis: Redis, prefix: string): Membership => ({
  beat: async (group, member, ttlMs) => {
    const members = (await redis.eval(
      BEAT,
      1,
      `${prefix}members:${group}`,
      member,
      String(ttlMs),
    )) as string[];
    return [...members].sort();
  },
  leave: async (group, member) => {
    await redis.zrem(`${prefix}members:${group}`, member);
  },
});

/** A 32-bit hash with full avalanche (FNV-1a, then murmur3's finaliser): spreads similar names evenly. */
const hash32 = (text: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
};

/**
 * Rendezvous (highest random weight) hashing: the member that owns `key`. Every member computes the
 * same answer from the same member list, and a member joining or leaving moves only the keys it
 * gains or held (about 1/n of them), not the others.
 */
export const ownerOf = (key: string, members: readonly string[]): string | undefined => {
  let best: string | undefined;
  let bestWeight = -1;
  for (const member of members) {
    const weight = hash32(`${member}\u0000${key}`);
    if (weight > bestWeight || (weight === bestWeight && best !== undefined && member < best)) {
      best = member;
      bestWeight = weight;
    }
  }
  return best;
};
