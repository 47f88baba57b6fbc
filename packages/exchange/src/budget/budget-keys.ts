import type { RequestShape, VenueSpec } from '@gridbot/venues';
import { ExchangeError, type VenueWait } from '../errors';
import type { PoolCharge, VenueBudget } from './venue-budget';

/**
 * The keys of a budget's pools and closures, and what a request is charged in them: shared by the
 * reservation before a request (attach-budget.ts) and the reading of its answer (read-answer.ts).
 */

/** Which budgets one ccxt instance spends: its venue's, its IP's and (signed) its account's. */
export type BudgetTarget = {
  spec: VenueSpec;
  /** `<exchange>:<mode>` (live, testnet and the sandbox are separate venues). */
  venue: string;
  /** A hash of the API key (never the key): the owner of the account pools. None for public clients. */
  account?: string;
};

export const closedKeyOf = (target: BudgetTarget, scope: 'ip' | 'account', id: string) =>
  `${target.venue}:closed:${scope === 'ip' ? 'ip' : 'acct'}:${id}`;

/** The closure of one pool of one owner (`<venue>:closed:pool:<pool>:ip:<ip>` or `…:acct:<account>`). */
export const poolClosedKeyOf = (target: BudgetTarget, charge: PoolCharge) =>
  `${target.venue}:closed:pool:${charge.key.slice(target.venue.length + 1)}`;

/**
 * The closures a request honours: its IP's always; its account's only when it costs in an account
 * pool (a -1015 stops new orders, while cancels and reads of the account go on); and, on a venue
 * whose refusals close one pool (Bybit's 10006, OKX's 50011), each pool it costs in.
 */
export const closedKeysOf = (budget: VenueBudget, target: BudgetTarget, charges: PoolCharge[]) => [
  closedKeyOf(target, 'ip', budget.ip),
  ...(target.account && charges.some((c) => c.key.includes(':acct:'))
    ? [closedKeyOf(target, 'account', target.account)]
    : []),
  ...(target.spec.overLimit.throttledScope === 'pool' ? charges.map((c) => poolClosedKeyOf(target, c)) : []),
];

/** Whose budget a key (a pool's or a closure's) belongs to. */
export const scopeOfKey = (key: string): 'ip' | 'account' => (key.includes(':ip:') ? 'ip' : 'account');

export const waitError = (venue: string, wait: VenueWait, detail: string, exchangeCode?: string) =>
  new ExchangeError(
    'EXCHANGE_UNAVAILABLE',
    `${venue}: ${detail}; nothing is sent before ${new Date(wait.resumeAt).toISOString()}`,
    { retryable: true, wait, ...(exchangeCode ? { exchangeCode } : {}) },
  );

/** What the request costs, pool by pool, in this budget's keys. */
export const chargesOf = (budget: VenueBudget, target: BudgetTarget, request: RequestShape): PoolCharge[] => {
  const cost = target.spec.requestCost(request);
  const charges: PoolCharge[] = [];
  for (const pool of target.spec.pools) {
    const units = cost[pool.id] ?? 0;
    if (units <= 0) continue;
    if (pool.scope === 'account' && !target.account) continue;
    const owner = pool.scope === 'ip' ? `ip:${budget.ip}` : `acct:${target.account}`;
    const key = `${target.venue}:${pool.id}:${owner}`;
    charges.push({
      pool: pool.id,
      key,
      units,
      // Ours when set, else what the venue last said it applies (Bybit's X-Bapi-Limit), else the table's.
      limit: budget.limits[pool.id] ?? budget.venueLimits?.get(key) ?? pool.limit,
      windowMs: pool.windowMs,
      ...(pool.rolling ? { rolling: true } : {}),
    });
  }
  return charges;
};
