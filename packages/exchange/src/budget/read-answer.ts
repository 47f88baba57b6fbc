import type { RequestShape, VenueSpec } from '@gridbot/venues';
import {
  type BudgetTarget,
  chargesOf,
  closedKeyOf,
  poolClosedKeyOf,
  scopeOfKey,
  waitError,
} from './budget-keys';
import { isObject, jsonOf } from './request-shape';
import { type PoolCharge, type VenueBudget, windowEnd } from './venue-budget';

/** A header of an answer by its lower-case name (ccxt keeps the server's spelling). */
const headerOf = (headers: Record<string, unknown>, name: string): string | undefined => {
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() === name) return value === undefined || value === null ? undefined : String(value);
  }
  return undefined;
};

/**
 * The venue's code in an answer, by its table: the top-level `codeField` (Binance `code`, Bybit
 * `retCode`), or a refused order's own code under it (OKX's `sCode` in `data[]`).
 */
const codeOf = (spec: VenueSpec, parsed: unknown): string | undefined => {
  if (!isObject(parsed)) return undefined;
  const { codeField, orderCodeField, okCode } = spec.errors;
  if (orderCodeField && Array.isArray(parsed.data)) {
    for (const entry of parsed.data) {
      const code = isObject(entry) ? entry[orderCodeField] : undefined;
      if (code !== undefined && code !== null && String(code) !== (okCode ?? '0')) return String(code);
    }
  }
  const top = parsed[codeField];
  return top === undefined || top === null ? undefined : String(top);
};

export type Answer = {
  status: number;
  headers: Record<string, unknown>;
  body: string;
  /** The body as ccxt parsed it (undefined when it is not JSON). */
  parsed: unknown;
  /** The request it answers, as the table reads it. */
  request?: RequestShape;
};

/** Records a closure here at once (this process stops now) and in the store (every process). */
const close = (
  budget: VenueBudget,
  target: BudgetTarget,
  closure: { key: string; scope: 'ip' | 'account'; until: number; status: number; pool?: string },
) => {
  const { key } = closure;
  budget.closed.set(key, Math.max(budget.closed.get(key) ?? 0, closure.until));
  budget.store
    .close({ key, until: closure.until, now: Date.now() })
    .then(({ started, until }) =>
      budget.onEvent({
        kind: 'closed',
        venue: target.venue,
        ip: budget.ip,
        scope: closure.scope,
        status: closure.status,
        until,
        started,
        ...(closure.pool ? { pool: closure.pool } : {}),
      }),
    )
    .catch((error: unknown) => budget.onEvent({ kind: 'store-failed', venue: target.venue, error }));
};

/**
 * The usage headers raise the budget's count to the venue's (the venue's count is the truth). A
 * header of what is `left` (Bybit's X-Bapi-Limit-Status) is the answering endpoint's, so it is read
 * for the pools the request was charged in only, beside the limit the venue applies (X-Bapi-Limit),
 * which this process uses from then on. docs/venues/bybit.md#rate-limits
 */
const readUsage = (budget: VenueBudget, target: BudgetTarget, answer: Answer, charges: PoolCharge[]) => {
  const now = Date.now();
  for (const pool of target.spec.pools) {
    if (!pool.usageHeader || (pool.scope === 'account' && !target.account)) continue;
    const owner = pool.scope === 'ip' ? `ip:${budget.ip}` : `acct:${target.account}`;
    const key = `${target.venue}:${pool.id}:${owner}`;
    const counts = pool.usageHeaderCounts ?? 'used';
    if (counts === 'left' && !charges.some((c) => c.key === key)) continue;
    const raw = headerOf(answer.headers, pool.usageHeader);
    const reported = raw === undefined ? Number.NaN : Number(raw);
    if (!Number.isFinite(reported)) continue;
    const venueLimit = pool.limitHeader ? Number(headerOf(answer.headers, pool.limitHeader)) : Number.NaN;
    if (Number.isInteger(venueLimit) && venueLimit > 0) budget.venueLimits?.set(key, venueLimit);
    const limit = budget.limits[pool.id] ?? budget.venueLimits?.get(key) ?? pool.limit;
    const used =
      counts === 'left'
        ? Math.max(0, (Number.isInteger(venueLimit) && venueLimit > 0 ? venueLimit : limit) - reported)
        : reported;
    budget.store
      .observe({ key, used, limit, windowMs: pool.windowMs, rolling: pool.rolling, now })
      .then(({ crossed }) => {
        if (pool.scope !== 'ip') return;
        budget.onEvent({ kind: 'usage', venue: target.venue, ip: budget.ip, pool: pool.id, used, limit });
        if (crossed)
          budget.onEvent({
            kind: 'near-limit',
            venue: target.venue,
            ip: budget.ip,
            pool: pool.id,
            used,
            limit,
          });
      })
      .catch((error: unknown) => budget.onEvent({ kind: 'store-failed', venue: target.venue, error }));
  }
};

/**
 * A refusal of one endpoint's limit (Bybit's 10006, OKX's 50011: `throttledScope: 'pool'`) closes
 * the pools the request was charged in — its account's when it has any, else its IP's — until the
 * venue's reset time (Bybit's X-Bapi-Limit-Reset-Timestamp) or, where the venue sends none (OKX), a
 * whole window from now: the refused request's own window has no room left whichever way the venue
 * slides it. Other pools of the account and the IP go on. docs/venues/bybit.md#rate-limits,
 * docs/venues/okx.md#bans
 */
const closePools = (
  budget: VenueBudget,
  target: BudgetTarget,
  answer: Answer,
  charges: PoolCharge[],
  exchangeCode: string | undefined,
): never => {
  const now = Date.now();
  const own = charges.filter((c) => c.key.includes(':acct:'));
  const refused = own.length > 0 ? own : charges;
  const { resetAtHeader } = target.spec.overLimit;
  const resetAt = resetAtHeader ? Number(headerOf(answer.headers, resetAtHeader)) : Number.NaN;
  const ends = refused.map((charge) => {
    const end = Number.isFinite(resetAt) && resetAt > now ? resetAt : now + charge.windowMs;
    close(budget, target, {
      key: poolClosedKeyOf(target, charge),
      scope: scopeOfKey(charge.key),
      until: end,
      status: answer.status,
      pool: charge.pool,
    });
    return end;
  });
  // A call the table does not cost has no pool to close: it waits the venue's shortest window.
  const until =
    ends.length > 0 ? Math.max(...ends) : now + Math.min(...target.spec.pools.map((p) => p.windowMs));
  const scope = own.length > 0 ? 'account' : 'ip';
  throw waitError(
    target.venue,
    { resumeAt: until, scope, reason: 'closed' },
    `over the ${refused.map((c) => c.pool).join(', ') || 'endpoint'} limit (${exchangeCode ?? `HTTP ${answer.status}`})`,
    exchangeCode,
  );
};

/**
 * Reads one answer: its usage headers (readUsage); 429/418 on Binance close the IP until
 * Retry-After has passed, -1015 (too many new orders, a 429 without Retry-After) closes the
 * account's ORDERS pool until its window ends; Bybit's 403 closes the IP for its ban (10 minutes:
 * Bybit sends no Retry-After), and a refusal of one endpoint's limit closes that pool (closePools).
 * The closure is thrown with the error, so the caller waits instead of resending.
 * docs/venues/binance.md#bans, #order-limits; docs/venues/bybit.md#bans; docs/venues/okx.md#bans
 */
export const readAnswer = (budget: VenueBudget, target: BudgetTarget, answer: Answer) => {
  const now = Date.now();
  const charges = answer.request ? chargesOf(budget, target, answer.request) : [];
  readUsage(budget, target, answer, charges);
  const { overLimit } = target.spec;
  const banned = overLimit.bannedStatus !== null && answer.status === overLimit.bannedStatus;
  const overStatus = answer.status === overLimit.throttledStatus && answer.status !== 200;
  const byPool = overLimit.throttledScope === 'pool';
  // A venue that refuses in the body (Bybit's 10006 in a 200) is read by its table's codes.
  const exchangeCode =
    banned || overStatus || byPool
      ? codeOf(target.spec, answer.parsed ?? jsonOf(answer.body ?? ''))
      : undefined;
  const throttledCode =
    exchangeCode !== undefined && target.spec.errors.codes[exchangeCode]?.outcome === 'throttled';
  // On a per-endpoint venue the code decides (OKX's 50013 "Systems are busy" is a 429 too, and is
  // the venue's load, not our budget); a throttled status without a readable code counts as over.
  const throttled = byPool
    ? throttledCode || (overStatus && exchangeCode === undefined)
    : answer.status === overLimit.throttledStatus;
  if (!banned && !throttled) return;
  budget.onEvent({
    kind: 'over-limit',
    venue: target.venue,
    ip: budget.ip,
    status: answer.status,
    ...(exchangeCode ? { exchangeCode } : {}),
  });
  if (throttled && !banned && byPool) closePools(budget, target, answer, charges, exchangeCode);
  const retryAfterS = overLimit.retryAfterHeader
    ? Number(headerOf(answer.headers, overLimit.retryAfterHeader))
    : Number.NaN;
  const ordersPool = /DAY/i.test(answer.body ?? '')
    ? target.spec.pools.find((p) => p.id === 'ORDERS_1D')
    : target.spec.pools.find((p) => p.id === 'ORDERS_10S');
  // -1015 is the account's ORDERS pool, never the IP's: Binance sends it without Retry-After
  // (rest-api.md#unfilled-order-count), so the window's end is the wait unless one is given.
  if (exchangeCode === '-1015' && target.account && ordersPool) {
    const until = retryAfterS > 0 ? now + retryAfterS * 1000 : windowEnd(ordersPool.windowMs, now);
    close(budget, target, {
      key: closedKeyOf(target, 'account', target.account),
      scope: 'account',
      until,
      status: answer.status,
    });
    throw waitError(
      target.venue,
      { resumeAt: until, scope: 'account', reason: 'closed' },
      'too many new orders (-1015)',
      exchangeCode,
    );
  }
  const weight = target.spec.pools.find((p) => p.usageHeader && p.scope === 'ip');
  // A ban without a Retry-After header (Bybit documents none) lasts the venue's first ban.
  const until =
    retryAfterS > 0
      ? now + retryAfterS * 1000
      : banned && !overLimit.retryAfterHeader
        ? now + overLimit.firstBanMs
        : windowEnd(weight?.windowMs ?? 60_000, now);
  close(budget, target, {
    key: closedKeyOf(target, 'ip', budget.ip),
    scope: 'ip',
    until,
    status: answer.status,
  });
  throw waitError(
    target.venue,
    { resumeAt: until, scope: 'ip', reason: 'closed' },
    `${banned ? 'IP banned' : 'over the request limit'} (HTTP ${answer.status}, Retry-After ${Number.isFinite(retryAfterS) ? retryAfterS : '-'} s)`,
    exchangeCode,
  );
};
