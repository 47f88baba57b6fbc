import {
  ALERT_SHARE,
  type BudgetStore,
  endOfWindow,
  windowEnd,
  windowIndex,
  windowsOf,
} from '@gridbot/exchange';
import type { Redis } from 'ioredis';

/**
 * KEYS: the closure keys (ARGV[2] of them), then one usage key per pool (its window in the name).
 * ARGV: now, closures, share, alert share, then per pool: units, limit, ttl ms, window end.
 * All or nothing: a closure or one full pool refuses the request and takes nothing anywhere.
 */
const RESERVE = `
local now = tonumber(ARGV[1])
local nc = tonumber(ARGV[2])
local share = tonumber(ARGV[3])
local alert = tonumber(ARGV[4])
for i = 1, nc do
  local untilAt = tonumber(redis.call('GET', KEYS[i]) or '0')
  if untilAt > now then return {'closed', tostring(untilAt), KEYS[i]} end
end
local n = #KEYS - nc
local before = {}
for i = 1, n do
  local a = 4 + (i - 1) * 4
  local units = tonumber(ARGV[a + 1])
  local limit = tonumber(ARGV[a + 2])
  local used = tonumber(redis.call('GET', KEYS[nc + i]) or '0')
  before[i] = used
  if used > 0 and used + units > limit * share then return {'full', ARGV[a + 4], KEYS[nc + i]} end
end
local out = {'ok'}
for i = 1, n do
  local a = 4 + (i - 1) * 4
  local limit = tonumber(ARGV[a + 2])
  local after = redis.call('INCRBY', KEYS[nc + i], tonumber(ARGV[a + 1]))
  redis.call('PEXPIRE', KEYS[nc + i], tonumber(ARGV[a + 3]))
  local crossed = '0'
  if before[i] < limit * alert and after >= limit * alert then crossed = '1' end
  table.insert(out, tostring(after))
  table.insert(out, crossed)
end
return out
`;

/** KEYS[1] usage key; ARGV: reported, limit, alert share, ttl ms. The venue's count raises ours. */
const OBSERVE = `
local reported = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if reported <= used then return 0 end
redis.call('SET', KEYS[1], tostring(reported), 'PX', tonumber(ARGV[4]))
if used < limit * tonumber(ARGV[3]) and reported >= limit * tonumber(ARGV[3]) then return 1 end
return 0
`;

/** KEYS[1] closure key; ARGV: until, now. Keeps the later end; says whether it was open. */
const CLOSE = `
local untilAt = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if untilAt > current then
  redis.call('SET', KEYS[1], tostring(untilAt), 'PX', math.ceil(untilAt - now) + 60000)
end
local started = 0
if current <= now then started = 1 end
return {started, tostring(math.max(current, untilAt))}
`;

/**
 * The budget of every process of the installation (docs/grid.md#request-budget): one Lua script a
 * reservation, so two processes on one IP never both take the window's last units.
 */
export const createRedisBudgetStore = (redis: Redis, prefix: string): BudgetStore => {
  const usageKey = (key: string, window: number) => `${prefix}budget:${key}:${window}`;
  return {
    reserve: async ({ charges, closedKeys, share, now }) => {
      // Each charge in every window it counts in (its grace: the one before too, windowsOf).
      const windows = charges.flatMap((c) =>
        windowsOf(c.windowMs, now, c.rolling).map((window) => ({ c, window })),
      );
      const keys = [
        ...closedKeys.map((k) => `${prefix}budget:${k}`),
        ...windows.map(({ c, window }) => usageKey(c.key, window)),
      ];
      const args = [String(now), String(closedKeys.length), String(share), String(ALERT_SHARE)];
      for (const { c, window } of windows) {
        const end = endOfWindow(c.windowMs, window, c.rolling);
        args.push(String(c.units), String(c.limit), String(end - now + c.windowMs), String(end));
      }
      const answer = (await redis.eval(RESERVE, keys.length, ...keys, ...args)) as string[];
      const [kind, ...rest] = answer;
      if (kind === 'closed' || kind === 'full') {
        // A full pool's key carries its window: the pool's own key without it.
        const named = (rest[1] ?? '').slice(`${prefix}budget:`.length);
        const key = kind === 'full' ? named.replace(/:-?\d+$/, '') : named;
        return { ok: false, reason: kind, resumeAt: Number(rest[0]), key };
      }
      // The current window of each charge (its last) is the one reported.
      const used: number[] = [];
      const crossed: boolean[] = [];
      windows.forEach(({ c, window }, i) => {
        if (window !== windowIndex(c.windowMs, now, c.rolling)) return;
        used.push(Number(rest[2 * i]));
        crossed.push(rest[2 * i + 1] === '1');
      });
      return { ok: true, used, crossed };
    },
    observe: async ({ key, used, limit, windowMs, rolling, now }) => {
      const ttl = windowEnd(windowMs, now, rolling) - now + windowMs;
      const crossed = await redis.eval(
        OBSERVE,
        1,
        usageKey(key, windowIndex(windowMs, now, rolling)),
        String(used),
        String(limit),
        String(ALERT_SHARE),
        String(ttl),
      );
      return { crossed: Number(crossed) === 1 };
    },
    close: async ({ key, until, now }) => {
      const [started, end] = (await redis.eval(
        CLOSE,
        1,
        `${prefix}budget:${key}`,
        String(until),
        String(now),
      )) as [number, string];
      return { started: Number(started) === 1, until: Number(end) };
    },
  };
};
