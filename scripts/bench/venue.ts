// Busy-installation benchmark (docs/performance.md#venue-budget), per venue (Binance, Bybit v5,
// OKX v5; `--exchange binance|bybit|okx|all`, default all): N running coin bots over A accounts
// spending one egress IP's request budget against the sandbox's dialect of the venue over HTTP
// (enforcing the venue's limits), ccxt clients as in production, the Redis budget; then the same
// over two egress IPs (127.0.0.1 and 127.0.0.2, bound as each process's local address). The work is
// the engine's request pattern per trigger through the adapter, not the full reconcile (no
// database): a fill is a high-priority open-orders read and trades read, then a take-profit sell
// and the next buy, placed as the reconcile places a new intent (`fresh`: the order request only);
// a sweep reconcile is one low-priority open-orders read per bot a minute; the scan is one
// last-prices call every 2 s per process. What each is on the wire is ccxt's (Binance
// /api/v3/openOrders, myTrades, order; Bybit /v5/order/realtime, /v5/execution/list,
// /v5/order/create, /v5/market/tickers; OKX /api/v5/trade/orders-pending, /trade/fills,
// /trade/batch-orders, /market/tickers): the run prints the endpoints the sandbox saw.
// Halfway, the venue's own refusal is forced through the sandbox (Binance: a 429 with Retry-After
// 10 on the first IP; Bybit: 10006 on one account's open-orders pool with its reset timestamp 5 s
// ahead; OKX: 50011 / HTTP 429 on one account's open-orders pool for one 2-s window), with a burst
// of fills on that account so the refusal comes at once and the closed pool is wanted meanwhile.
// Floors, from the venue's table (packages/venues, the one the budget reads): refusals answered 0
// besides the forced one (and requests already in flight when it was answered), requests to the
// closed IP or pool before it reopens 0, requests per window ≤ each pool's limit (Binance: weight
// per minute), fill → next orders placed p99 ≤ 3 s (fills that arrived on the closed IP or account
// during the closure apart). Exits non-zero when a floor fails.
// Flags: --exchange all --bots (2000 Binance, 6000 Bybit, 2000 OKX) --accounts 200 --seconds 40
// --fills-per-min 100
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createExchangeClient,
  createVenueBudget,
  type ExchangeClient,
  venueWaitOf,
  withRequestPriority,
} from '@gridbot/exchange';
import {
  type DialectLoggedRequest,
  IN_FLIGHT_MS,
  type SandboxExchangeHandle,
  startSandboxExchange,
} from '@gridbot/sandbox';
import { createRedisBudgetStore } from '@gridbot/services';
import { binance, bybit, okx, type RatePool, type VenueSpec } from '@gridbot/venues';
import Decimal from 'decimal.js';
import { Redis } from 'ioredis';

const flag = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const exchangeFlag = (() => {
  const i = process.argv.indexOf('--exchange');
  return i > 0 ? (process.argv[i + 1] ?? 'all') : 'all';
})();
/**
 * Coin bots per venue unless --bots says: enough sweeps to fill one IP's low-priority share. A
 * Binance open-orders read weighs 6 of 6,000 a minute; a Bybit call is 1 of 600 per 5 s (7,200 a
 * minute), so three times the bots; OKX counts private calls per account only (its IP pools are
 * the public calls'), so Binance's load.
 */
const DEFAULT_BOTS: Readonly<Record<string, number>> = { binance: 2000, bybit: 6000, okx: 2000 };
const botsFlag = flag('bots', 0);
const ACCOUNTS = flag('accounts', 200);
const SECONDS = flag('seconds', 40);
const FILLS_PER_MIN = flag('fills-per-min', 100);
/**
 * Fills on the forced account when its refusal is forced: past OKX's 10 trades reads per 2 s and
 * Bybit's 20 new orders a second (2 per fill), so the budget paces them when the pool reopens.
 */
const BURST = 12;
const FILL_P99_FLOOR_MS = 3000;
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] ?? Number.NaN;

/** One request as the sandbox's dialect logged it (Binance's also with the weight it charged). */
type Logged = DialectLoggedRequest & { weight?: number };

/** The forced refusal: whose budget it closes (the IP, or one pool of one account) and until when. */
type Forced = { at: number; until: number; ip?: string; pool?: RatePool; accountId?: number };

type Floor = { name: string; value: number; floor: number; latency?: boolean; note?: string };

type Venue = {
  id: 'binance' | 'bybit' | 'okx';
  spec: VenueSpec;
  url: (sandbox: SandboxExchangeHandle) => string;
  log: (sandbox: SandboxExchangeHandle, since: number) => Logged[];
  /** Forces the venue's refusal on account `accountId` (or the first IP); answers what it closes. */
  force: (sandbox: SandboxExchangeHandle, apiKey: string, accountId: number) => Promise<Forced>;
};

/** A call of a dialect's control API on its port. */
const control = async (base: string, path: string, body: Record<string, unknown>) => {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { until: number };
};

const poolOf = (spec: VenueSpec, id: string) => {
  const pool = spec.pools.find((p) => p.id === id);
  if (!pool) throw new Error(`${spec.id}: no pool ${id}`);
  return pool;
};

/** Binance's forced 429: Retry-After, s. */
const BINANCE_FORCED_S = 10;
/** Bybit's forced 10006: its X-Bapi-Limit-Reset-Timestamp this far ahead. */
const BYBIT_FORCED_MS = 5000;

const VENUE_RUNS: Venue[] = [
  {
    id: 'binance',
    spec: binance,
    url: (s) => s.url,
    log: (s, since) =>
      s.control.requestLog(since).map((r) => ({
        ...r,
        ...(r.status === 429 || r.status === 418 ? { refusal: String(r.status) } : {}),
      })),
    force: async (s) => {
      const at = Date.now();
      // A 429 with Retry-After on the first IP; a request inside it earns a 418 (docs/venues/binance.md#bans).
      s.control.forceOverLimit({ status: 429, retryAfterS: BINANCE_FORCED_S, ip: '127.0.0.1' });
      return { at, until: at + BINANCE_FORCED_S * 1000, ip: '127.0.0.1' };
    },
  },
  {
    id: 'bybit',
    spec: bybit,
    url: (s) => s.bybitUrl,
    log: (s, since) => s.bybit.limits.log.since(since),
    force: async (s, apiKey, accountId) => {
      // 10006 on the account's open-orders endpoint, reset timestamp ahead (docs/venues/bybit.md#rate-limits).
      const pool = poolOf(bybit, 'ORDER_REALTIME');
      const at = Date.now();
      const { until } = await control(s.bybitUrl, '/_sandbox/bybit/limits/force', {
        pool: pool.id,
        apiKey,
        forMs: BYBIT_FORCED_MS,
      });
      return { at, until, pool, accountId };
    },
  },
  {
    id: 'okx',
    spec: okx,
    url: (s) => s.okxUrl,
    log: (s, since) => s.okx.limits.log.since(since),
    force: async (s, apiKey, accountId) => {
      // 50011 / HTTP 429 on the account's pending-orders endpoint for one of its windows; OKX sends
      // no reset time (docs/venues/okx.md#bans).
      const pool = poolOf(okx, 'ORDERS_PENDING');
      const at = Date.now();
      const { until } = await control(s.okxUrl, '/_sandbox/okx/limits/force', {
        pool: pool.id,
        apiKey,
        forMs: pool.windowMs,
      });
      return { at, until, pool, accountId };
    },
  },
];

type Job = { kind: 'fill' | 'sweep'; bot: number; at: number; notBefore: number };

/**
 * Requests per window and owner, in each of the venue's pools: per fixed window (aligned as the
 * sandbox counts), or for a rolling pool (Bybit's) per span of its window ending at each request.
 */
const peaksPerPool = (venue: Venue, log: Logged[]) => {
  const peaks = new Map<string, { pool: RatePool; peak: number }>();
  const counts = new Map<string, number>();
  const recent = new Map<string, { time: number; units: number }[]>();
  for (const r of [...log].sort((a, b) => a.time - b.time)) {
    if (r.refusal === 'ban' || r.refusal === '418') continue;
    const cost =
      venue.id === 'binance'
        ? { REQUEST_WEIGHT: r.weight ?? 0 }
        : venue.spec.requestCost({ method: r.method, path: r.path, params: new URLSearchParams() });
    for (const pool of venue.spec.pools) {
      const units = cost[pool.id] ?? 0;
      if (units <= 0) continue;
      const owner = pool.scope === 'ip' ? `ip:${r.ip}` : `acct:${r.accountId}`;
      let used: number;
      if (pool.rolling) {
        const key = `${pool.id}|${owner}`;
        const window = recent.get(key) ?? [];
        recent.set(key, window);
        window.push({ time: r.time, units });
        while (window[0]!.time <= r.time - pool.windowMs) window.shift();
        used = window.reduce((sum, e) => sum + e.units, 0);
      } else {
        const key = `${pool.id}|${owner}|${Math.floor(r.time / pool.windowMs)}`;
        used = (counts.get(key) ?? 0) + units;
        counts.set(key, used);
      }
      const best = peaks.get(pool.id);
      if (!best || used > best.peak) peaks.set(pool.id, { pool, peak: used });
    }
  }
  return [...peaks.values()];
};

const run = async (venue: Venue, ips: string[]): Promise<Floor[]> => {
  const BOTS = botsFlag > 0 ? botsFlag : (DEFAULT_BOTS[venue.id] ?? 2000);
  const sandbox = await startSandboxExchange();
  // Unified symbols (BTC/USDT), and each market's resting levels: 20 % below and above its price,
  // twice its minimum order value.
  const markets = sandbox.control
    .markets()
    .slice(0, 4)
    .map((m) => {
      const level = (side: 'buy' | 'sell') => {
        const price = new Decimal(m.price)
          .mul(side === 'buy' ? '0.8' : '1.2')
          .toNearest(m.tickSize, Decimal.ROUND_DOWN);
        const amount = new Decimal(m.minNotional).mul(2).div(price).toNearest(m.stepSize, Decimal.ROUND_UP);
        return { price: price.toFixed(), amount: amount.toFixed() };
      };
      return { symbol: `${m.base}/${m.quote}`, base: m.base, buy: level('buy'), sell: level('sell') };
    });
  const symbols = markets.map((m) => m.symbol);
  const prefix = `bench-${randomBytes(4).toString('hex')}:`;
  const keys = Array.from({ length: ACCOUNTS }, () =>
    sandbox.control.createAccount({
      balances: { USDT: '1000000', ...Object.fromEntries(markets.map((m) => [m.base, '1000000'])) },
    }),
  );
  const egress = ips.map((ip) => {
    const budget = createVenueBudget({ store: createRedisBudgetStore(redis, prefix), ip, maxWaitMs: 1000 });
    const common = {
      exchange: venue.id,
      mode: 'sandbox' as const,
      sandboxUrl: venue.url(sandbox),
      budget,
      localAddress: ip,
    };
    return {
      ip,
      heldUntil: 0,
      accounts: keys.map((k) =>
        createExchangeClient({
          ...common,
          apiKey: k.apiKey,
          secret: k.secret,
          ...(venue.id === 'okx' ? { password: k.passphrase } : {}),
        }),
      ),
      venue: createExchangeClient({ ...common, apiKey: '', secret: '' }),
    };
  });
  for (const e of egress) await e.venue.loadMarkets();
  const queue: Job[] = [];
  const latencies: { at: number; bot: number; ms: number }[] = [];
  let forced: Forced | undefined;
  let deferred = 0;
  let failedPlacements = 0;
  let lastFailure = '';
  let seq = 0;
  const start = Date.now();
  const end = start + SECONDS * 1000;
  const marketOf = (bot: number) => markets[bot % markets.length]!;
  const symbolOf = (bot: number) => marketOf(bot).symbol;
  const place = (client: ExchangeClient, bot: number, side: 'buy' | 'sell') =>
    client.placeOrder({
      symbol: symbolOf(bot),
      side,
      type: 'limit',
      // Away from the price (which moves only through the control API): resting, as a grid's next levels.
      ...marketOf(bot)[side],
      clientOrderId: `xb${bot}n${seq++}${prefix.slice(6, 12)}`,
      // A new intent's id was never sent: no look-up first, as the reconcile places it.
      fresh: true,
    });
  const work = async (e: (typeof egress)[number], job: Job) => {
    const client = e.accounts[job.bot % ACCOUNTS]!;
    if (job.kind === 'sweep') {
      await withRequestPriority('low', () => client.fetchOpenOrders(symbolOf(job.bot)));
      return;
    }
    await withRequestPriority('high', async () => {
      await client.fetchOpenOrders(symbolOf(job.bot));
      await client.fetchMyTrades(symbolOf(job.bot)).catch((error: unknown) => {
        if (venueWaitOf(error)) throw error;
      });
    });
    for (const side of ['sell', 'buy'] as const) {
      await place(client, job.bot, side).catch((error: unknown) => {
        if (venueWaitOf(error)) throw error;
        failedPlacements += 1;
        lastFailure = (error as Error).message;
      });
    }
    latencies.push({ at: job.at, bot: job.bot, ms: Date.now() - job.at });
  };
  // Workers per IP take the next due job; a closed IP holds its workers, a closed pool or a spent
  // window defers the job.
  const worker = async (e: (typeof egress)[number]) => {
    while (Date.now() < end) {
      if (e.heldUntil > Date.now()) {
        await sleep(e.heldUntil - Date.now());
        continue;
      }
      const now = Date.now();
      // Fills first (the order stream's reconciles run at high priority), then sweeps in order.
      const fill = queue.findIndex((j) => j.kind === 'fill' && j.notBefore <= now);
      const index = fill >= 0 ? fill : queue.findIndex((j) => j.notBefore <= now);
      if (index < 0) {
        await sleep(20);
        continue;
      }
      const [job] = queue.splice(index, 1);
      try {
        await work(e, job!);
      } catch (error) {
        const wait = venueWaitOf(error);
        if (!wait) continue;
        if (wait.reason === 'closed' && wait.scope === 'ip') {
          e.heldUntil = wait.resumeAt;
          queue.unshift(job!);
        } else {
          deferred += 1;
          queue.push({ ...job!, notBefore: wait.resumeAt });
        }
      }
    }
  };
  const workers = egress.flatMap((e) => Array.from({ length: 16 }, () => worker(e)));
  // Triggers: fills at FILLS_PER_MIN, each bot swept once a minute, a scan every 2 s per process.
  const triggers = (async () => {
    for (let tick = 0; Date.now() < end; tick++) {
      const now = Date.now();
      for (let i = 0; i < FILLS_PER_MIN / 60; i++) {
        queue.push({ kind: 'fill', bot: Math.floor(Math.random() * BOTS), at: now, notBefore: now });
      }
      const perSecond = BOTS / 60;
      for (let i = 0; i < perSecond; i++) {
        queue.push({ kind: 'sweep', bot: (tick * Math.ceil(perSecond) + i) % BOTS, at: now, notBefore: now });
      }
      if (tick % 2 === 0) {
        for (const e of egress) {
          void withRequestPriority('low', () => e.venue.fetchLastPrices(symbols)).catch(() => undefined);
        }
      }
      if (!forced && now - start > (SECONDS * 1000) / 2) {
        forced = await venue.force(sandbox, keys[0]!.apiKey, keys[0]!.accountId);
        // A burst of fills on the forced account (its bots: bot % ACCOUNTS === 0).
        for (let i = 0; i < BURST; i++) {
          const bot = (i * ACCOUNTS) % BOTS;
          queue.unshift({ kind: 'fill', bot, at: Date.now(), notBefore: Date.now() });
        }
      }
      await sleep(1000);
    }
  })();
  await Promise.all([triggers, ...workers]);
  const log = venue.log(sandbox, start);
  await sandbox.close();

  // The closed budget: the forced IP (Binance), or the forced pool of the forced account.
  const inClosed = (r: Logged) =>
    forced?.pool
      ? r.accountId === forced.accountId &&
        (venue.spec.requestCost({ method: r.method, path: r.path, params: new URLSearchParams() })[
          forced.pool.id
        ] ?? 0) > 0
      : r.ip === forced?.ip;
  const firstForced = log.find((r) => r.refusal !== undefined && inClosed(r) && r.time >= (forced?.at ?? 0));
  const reopensAt = forced && firstForced ? Math.max(forced.until, firstForced.time) : Number.NaN;
  // Sent before the refusal could be read (arriving within IN_FLIGHT_MS of it, the same
  // millisecond included): in flight.
  const closedBetween = (from: number, to: number) =>
    firstForced
      ? log.filter(
          (r) => r !== firstForced && inClosed(r) && r.time >= firstForced.time + from && r.time < to,
        ).length
      : 0;
  const inFlight = closedBetween(0, firstForced ? firstForced.time + IN_FLIGHT_MS + 1 : 0);
  const inside = closedBetween(IN_FLIGHT_MS + 1, reopensAt);
  const refused = log.filter((r) => r.refusal !== undefined).length - (firstForced ? 1 : 0) - inFlight;
  // Fills of the closed IP or account still waiting when the closure began, or arriving during it,
  // wait it out: reported apart.
  const duringClosure = (l: { at: number; bot: number; ms: number }) =>
    forced !== undefined &&
    l.at + l.ms >= forced.at &&
    l.at <= forced.until &&
    (forced.pool ? l.bot % ACCOUNTS === 0 : true);
  const clear = latencies.filter((l) => !duringClosure(l)).map((l) => l.ms);
  const fillP99 = p99(clear);

  // The endpoints the engine sent through ccxt (the pattern per trigger), most used first.
  const paths = new Map<string, number>();
  for (const r of log) paths.set(`${r.method} ${r.path}`, (paths.get(`${r.method} ${r.path}`) ?? 0) + 1);
  const pattern = [...paths.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([p, n]) => `${p} ${n}`)
    .join(', ');
  console.log(`    ${BOTS} bots; endpoints: ${pattern}`);
  console.log(
    `    forced: ${firstForced ? `${firstForced.refusal} at +${((firstForced.time - start) / 1000).toFixed(1)} s, closed ${Math.round(reopensAt - firstForced.time)} ms${forced?.pool ? ` (${forced.pool.id} of account ${forced.accountId})` : ` (IP ${forced?.ip})`}` : 'never answered'}; ${inFlight} more already in flight; fills handled ${latencies.length}, p99 ${p99(latencies.map((l) => l.ms))} ms with the closure; deferred ${deferred}, queue left ${queue.length}; placements refused ${failedPlacements}${lastFailure ? ` (${lastFailure})` : ''}`,
  );
  const floors: Floor[] = [
    {
      name: 'refusals besides the forced one',
      value: Number.isNaN(refused) ? 0 : refused,
      floor: 0,
      note: log
        .filter(
          (r) =>
            r.refusal !== undefined &&
            !(
              firstForced &&
              inClosed(r) &&
              r.time >= firstForced.time &&
              r.time <= firstForced.time + IN_FLIGHT_MS
            ),
        )
        .slice(0, 6)
        .map(
          (r) =>
            `${r.refusal} ${r.path} ${r.ip} acct ${r.accountId ?? '-'} at ${firstForced ? `+${r.time - firstForced.time} ms` : r.time - start}`,
        )
        .join('; '),
    },
    // The forced refusal must have been answered, and nothing sent to what it closed until it reopens.
    { name: 'forced refusal answered', value: firstForced ? 1 : 0, floor: 1 },
    { name: 'requests to the closed budget before it reopens', value: inside, floor: 0 },
  ];
  for (const { pool, peak } of peaksPerPool(venue, log)) {
    floors.push({
      name: `${pool.id} per ${pool.interval.num} ${pool.interval.unit.toLowerCase()} per ${pool.scope}, peak`,
      value: peak,
      floor: pool.limit,
    });
  }
  floors.push({
    name: 'fill → next orders placed p99, ms',
    value: fillP99,
    floor: FILL_P99_FLOOR_MS,
    latency: true,
  });
  return floors;
};

const passes = (f: Floor) => (f.name === 'forced refusal answered' ? f.value >= f.floor : f.value <= f.floor);

const venues = VENUE_RUNS.filter((v) => exchangeFlag === 'all' || v.id === exchangeFlag);
if (venues.length === 0) throw new Error(`--exchange binance|bybit|okx|all, not ${exchangeFlag}`);
console.log(
  `${botsFlag > 0 ? botsFlag : 'binance 2000 / bybit 6000 / okx 2000'} coin bots over ${ACCOUNTS} accounts, ${FILLS_PER_MIN} fills a minute, ${SECONDS} s per phase`,
);
let failed = 0;
for (const venue of venues) {
  for (const ips of [['127.0.0.1'], ['127.0.0.1', '127.0.0.2']]) {
    const phase = `${venue.id}, ${ips.length === 1 ? 'one egress IP' : 'two egress IPs'}`;
    console.log(`${phase}:`);
    const floors = await run(venue, ips);
    for (const f of floors) {
      const ok = passes(f);
      if (!ok) failed += 1;
      const ratio = f.latency ? `, ratio ${(f.value / f.floor).toFixed(2)}` : '';
      const sign = f.name === 'forced refusal answered' ? '≥' : '≤';
      console.log(
        `  | ${venue.id} | ${ips.length} IP | ${f.name} | ${f.value} | ${sign} ${f.floor}${ratio} | ${ok ? 'PASS' : 'FAIL'} |${!ok && f.note ? ` ${f.note}` : ''}`,
      );
    }
  }
}
redis.disconnect();
console.log(failed === 0 ? 'all floors pass' : `${failed} floor(s) failed`);
process.exit(failed === 0 ? 0 : 1);
