// Busy-installation benchmark (docs/performance.md#venue-budget): N running coin bots over A
// accounts spending one egress IP's Binance budget (the sandbox over HTTP, enforcing Binance's
// limits, ccxt clients as in production, the Redis budget), then the same over two egress IPs
// (127.0.0.1 and 127.0.0.2, bound as each process's local address). The work is the engine's
// request pattern per trigger, not the full reconcile (no database): a fill costs a high-priority
// open-orders read (6) and trades read (5), a take-profit sell and the next buy, each placed as
// placeOrder does (lookup 4 + open orders 6 + order 1); a sweep reconcile is one low-priority
// open-orders read per bot a minute; the scan is one last-prices call (4) every 2 s. Halfway, the
// sandbox forces a 429 with Retry-After 10 on the first IP.
// Floors: 429s answered 0 (except the forced one), requests inside the forced Retry-After 0,
// weight per minute ≤ the budget, fill → next orders placed p99 ≤ 3 s.
// Flags: --bots 2000 --accounts 200 --seconds 90 --fills-per-min 100
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createExchangeClient,
  createVenueBudget,
  type ExchangeClient,
  venueWaitOf,
  withRequestPriority,
} from '@gridbot/exchange';
import { IN_FLIGHT_MS, startSandboxExchange } from '@gridbot/sandbox';
import { createRedisBudgetStore } from '@gridbot/services';
import { Redis } from 'ioredis';

const flag = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const BOTS = flag('bots', 2000);
const ACCOUNTS = flag('accounts', 200);
const SECONDS = flag('seconds', 90);
const FILLS_PER_MIN = flag('fills-per-min', 100);
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
/** The forced 429's Retry-After, s. */
const FORCED_S = 10;

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] ?? Number.NaN;

type Job = { kind: 'fill' | 'sweep'; bot: number; at: number; notBefore: number };

const run = async (ips: string[]) => {
  const sandbox = await startSandboxExchange();
  const symbols = sandbox.control
    .markets()
    .map((m: { symbol: string }) => m.symbol)
    .slice(0, 4);
  const prefix = `bench-${randomBytes(4).toString('hex')}:`;
  const keys = Array.from({ length: ACCOUNTS }, () =>
    sandbox.control.createAccount({ balances: { USDT: '1000000' } }),
  );
  const egress = ips.map((ip) => {
    const budget = createVenueBudget({ store: createRedisBudgetStore(redis, prefix), ip, maxWaitMs: 1000 });
    const common = {
      exchange: 'binance',
      mode: 'sandbox' as const,
      sandboxUrl: sandbox.url,
      budget,
      localAddress: ip,
    };
    return {
      ip,
      heldUntil: 0,
      accounts: keys.map((k) => createExchangeClient({ ...common, ...k })),
      venue: createExchangeClient({ ...common, apiKey: '', secret: '' }),
    };
  });
  for (const e of egress) await e.venue.loadMarkets();
  const queue: Job[] = [];
  const latencies: number[] = [];
  /** Fills that did not arrive during the forced closure (which they must wait out on one IP). */
  const clearLatencies: number[] = [];
  let forcedAt = 0;
  let refusedFull = 0;
  let seq = 0;
  const start = Date.now();
  const end = start + SECONDS * 1000;
  const symbolOf = (bot: number) => `${symbols[bot % symbols.length]}`;
  const place = (client: ExchangeClient, bot: number, side: 'buy' | 'sell') =>
    client.placeOrder({
      symbol: symbolOf(bot),
      side,
      type: 'limit',
      // Far from the price: resting, never filling, as a grid's next levels.
      price: side === 'buy' ? '0.01' : '1000000',
      amount: side === 'buy' ? '1000' : '0.00001',
      clientOrderId: `x-b${bot}-${seq++}-${prefix.slice(6, 12)}`,
      // A new intent's id was never sent: no look-up first, as the reconcile places it (1 weight).
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
      await client.fetchMyTrades(symbolOf(job.bot)).catch(() => undefined);
    });
    await place(client, job.bot, 'sell').catch((error: unknown) => {
      if (venueWaitOf(error)) throw error;
    });
    await place(client, job.bot, 'buy').catch((error: unknown) => {
      if (venueWaitOf(error)) throw error;
    });
    latencies.push(Date.now() - job.at);
    if (forcedAt === 0 || job.at < forcedAt || job.at > forcedAt + FORCED_S * 1000) {
      clearLatencies.push(Date.now() - job.at);
    }
  };
  // Workers per IP take the next due job; a closed IP holds its workers, a spent window defers the job.
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
          refusedFull += 1;
          queue.push({ ...job!, notBefore: wait.resumeAt });
        }
      }
    }
  };
  const workers = egress.flatMap((e) => Array.from({ length: 16 }, () => worker(e)));
  // Triggers: fills at FILLS_PER_MIN, each bot swept once a minute, a scan every 2 s per process.
  const triggers = (async () => {
    let forced = false;
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
        forced = true;
        forcedAt = Date.now();
        sandbox.control.forceOverLimit({ status: 429, retryAfterS: FORCED_S, ip: '127.0.0.1' });
      }
      await sleep(1000);
    }
  })();
  await Promise.all([triggers, ...workers]);
  const log = sandbox.control.requestLog(start);
  // The forced 429: the first one answered to the first IP once it was forced (not an earlier one).
  const firstForced = log.find((r) => r.status === 429 && r.ip === '127.0.0.1' && r.time >= forcedAt);
  // Sent after the 429 could be read (arriving later than IN_FLIGHT_MS after it), and in flight.
  const after429 = (from: number, to: number) =>
    firstForced
      ? log.filter(
          (r) => r.ip === '127.0.0.1' && r.time > firstForced.time + from && r.time < firstForced.time + to,
        ).length
      : Number.NaN;
  const inside = after429(IN_FLIGHT_MS, FORCED_S * 1000);
  const inFlight = after429(0, IN_FLIGHT_MS + 1);
  const minutes = Math.max(1, Math.round(SECONDS / 60));
  for (const ip of ips) {
    const byMinute = new Map<number, number>();
    for (const r of log.filter((x) => x.ip === ip)) {
      const m = Math.floor(r.time / 60_000);
      byMinute.set(m, (byMinute.get(m) ?? 0) + r.weight);
    }
    const peak = Math.max(0, ...byMinute.values());
    console.log(
      `  IP ${ip}: weight per minute peak ${peak} / 6000 (${Math.round(peak / 60)} %), ${log.filter((x) => x.ip === ip).length} requests over ${minutes} min`,
    );
  }
  const answered429 = log.filter((r) => r.status === 429).length - (firstForced ? 1 : 0) - inFlight;
  const bans = log.filter((r) => r.status === 418).length;
  console.log(
    `  429s answered (beyond the forced one): ${answered429}  (floor 0)\n` +
      `  418 bans: ${bans}  (floor 0)\n` +
      `  requests inside the forced Retry-After: ${inside}  (floor 0; ${inFlight} more already in flight, answered 429)\n` +
      `  fills handled ${latencies.length}, fill → next orders placed p99 ${p99(clearLatencies)} ms outside the forced closure  (floor ≤ 3000 ms, ratio ${(p99(clearLatencies) / 3000).toFixed(2)}); ${p99(latencies)} ms with it\n` +
      `  work deferred by a spent window: ${refusedFull}; queue left ${queue.length} (sweeps wait at 60 %)`,
  );
  await sandbox.close();
};

console.log(`${BOTS} coin bots over ${ACCOUNTS} accounts, ${FILLS_PER_MIN} fills a minute, ${SECONDS} s`);
console.log('one egress IP:');
await run(['127.0.0.1']);
console.log('two egress IPs:');
await run(['127.0.0.1', '127.0.0.2']);
redis.disconnect();
