import type { ServiceContext } from '../context/service-context';

/**
 * Partner figures are cached (docs/bonuses.md#caches) under a key that names what they were
 * computed from: the tree's fingerprint (newest registration, newest licence purchase) for team
 * figures, the user's newest main-balance entry for rewards. A registration or a purchase anywhere
 * therefore changes the key — the next read recomputes — without anyone having to remember to
 * invalidate. Each fingerprint is one index lookup. The TTL bounds what no fingerprint sees: a
 * licence running out, a coin started or stopped.
 */
export const PARTNER_CACHE_TTL_MS = 60_000;

/** Newest user id and newest licence purchase (index `ledger_transfers (type, created_at)`). */
export const treeFingerprint = async (ctx: ServiceContext): Promise<string> => {
  const [row] = await ctx.prisma.$queryRawUnsafe<{ fingerprint: string }[]>(
    `SELECT concat_ws(':',
       (SELECT max(id) FROM users),
       (SELECT floor(extract(epoch FROM max(created_at)) * 1000)::bigint FROM ledger_transfers
         WHERE type = 'license_purchase')) AS fingerprint`,
  );
  return row?.fingerprint ?? '';
};

/** The newest entry of the user's main balance (index `ledger_entries (account_id, id)`). */
export const rewardsFingerprint = async (ctx: ServiceContext, userId: number): Promise<string> => {
  const [row] = await ctx.prisma.$queryRawUnsafe<{ fingerprint: string | null }[]>(
    `SELECT (SELECT max(e.id) FROM ledger_entries e WHERE e.account_id = a.id)::text AS fingerprint
       FROM ledger_accounts a WHERE a.user_id = $1 AND a.sub_balance = 'main'`,
    userId,
  );
  return row?.fingerprint ?? '0';
};

/** The cached value of `key`, or `compute()` stored under it. */
export const cached = async <T>(ctx: ServiceContext, key: string, compute: () => Promise<T>): Promise<T> => {
  const hit = await ctx.cache.get<T>(key);
  if (hit !== undefined) return hit;
  const value = await compute();
  await ctx.cache.set(key, value, PARTNER_CACHE_TTL_MS);
  return value;
};
