import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type BudgetEvent,
  createVenueBudget,
  type ExchangeClient,
  ExchangeError,
  graceOf,
  ROLLING_SLOTS,
  venueWaitOf,
  withRequestPriority,
} from '@gridbot/exchange';
import { createInProcessQueue, reconcileCoinBotJob, reconcileJobId } from '@gridbot/jobs';
import { metricsRegistry } from '@gridbot/metrics';
import {
  createBudgetEventSink,
  createExchangeClients,
  createRedisBudgetStore,
  scanVenuePrices,
} from '@gridbot/services';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerReconcile } from '../src/jobs/reconcile';
import { createGridHarness, type Harness } from './support/grid-harness';
import { waitFor } from './support/wait-for';

const url = process.env.REDIS_URL;
const VENUE = 'binance:sandbox';
const quietLog = { debug() {}, info() {}, warn() {}, error() {}, child: () => quietLog } as never;

/**
 * The request budget of an egress IP (docs/grid.md#request-budget), against the sandbox exchange
 * over HTTP enforcing Binance's limits (429, 418 bans, -1015) and, on their dialects, Bybit's (403
 * bans, 10006) and OKX's (50011), with "processes" that share only Redis: each its own budget
 * object, exchange clients and local knowledge of closures.
 */
describe.runIf(url)('venue request budget (per egress IP, shared through Redis)', () => {
  let h: Harness;
  let redis: Redis;
  let prefix: string;
  beforeAll(async () => {
    h = await createGridHarness();
    redis = new Redis(url!);
  });
  afterAll(async () => {
    redis?.disconnect();
    await h?.close();
  });
  beforeEach(() => {
    prefix = `test-${randomBytes(4).toString('hex')}:`;
    h.sandbox.control.resetLimits();
  });

  /** One process leaving through `ip` (bound to it as its local address when not 127.0.0.1). */
  const processOn = (
    ip: string,
    options: { limits?: Record<string, number>; maxWaitMs?: number; events?: BudgetEvent[] } = {},
  ) => {
    const sink = createBudgetEventSink({ prisma: h.prisma, log: quietLog });
    const budget = createVenueBudget({
      store: createRedisBudgetStore(redis, prefix),
      ip,
      maxWaitMs: options.maxWaitMs ?? 0,
      limits: options.limits ?? {},
      onEvent: (event) => {
        options.events?.push(event);
        sink(event);
      },
    });
    const clients = createExchangeClients({
      prisma: h.prisma,
      secretBox: h.contextFor().secrets,
      sandboxUrl: h.sandbox.url,
      sandboxDialectUrls: { bybit: h.sandbox.bybitUrl, okx: h.sandbox.okxUrl },
      budget,
      ...(ip === '127.0.0.1' ? {} : { localAddress: ip }),
    });
    return {
      budget,
      account: () => clients.forAccount(h.account.id),
      keys: (keys = h.keys, exchange: 'binance' | 'bybit' | 'okx' = 'binance') =>
        clients.forKeys({
          exchange,
          mode: 'sandbox',
          apiKey: keys.apiKey,
          secret: keys.secret,
          ...('passphrase' in keys ? { password: keys.passphrase as string } : {}),
        }),
      venue: () => clients.forVenue(VENUE),
    };
  };

  const log = (since: number) => h.sandbox.control.requestLog(since);
  /** Counting tests start well inside a minute window (the venue's and ours, a second later). */
  const awayFromWindowEdge = async () => {
    const into = Date.now() % 60_000;
    if (into > 52_000 || into < 2_000) await sleep(62_000 - into + (into < 2_000 ? -60_000 : 0) + 500);
  };
  const refusedWith = async (call: Promise<unknown>) => {
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ExchangeError);
    return venueWaitOf(error)!;
  };
  const farBuy = (n: number) => ({
    symbol: 'XRP/USDT',
    side: 'buy' as const,
    type: 'limit' as const,
    price: '0.5',
    amount: '20',
    clientOrderId: `x-budget-${prefix.slice(5, 13)}-${n}`,
  });
  const warm = async (...clients: ExchangeClient[]) => {
    for (const c of clients) await c.loadMarkets();
  };

  it('keeps two processes on one IP inside one budget: no 429, the rest refused with the window end', async () => {
    h.sandbox.control.setLimits({ REQUEST_WEIGHT: 200 });
    const events: BudgetEvent[] = [];
    const [a, b] = [
      processOn('127.0.0.1', { limits: { REQUEST_WEIGHT: 200 }, events }),
      processOn('127.0.0.1', { limits: { REQUEST_WEIGHT: 200 }, events }),
    ];
    const [ca, cb] = [a.keys(), b.keys()];
    await warm(ca, cb);
    await awayFromWindowEdge();
    const since = Date.now();
    // 40 open-orders reads of weight 6 (240) against 200 a minute, from two processes with two keys' worth of clients.
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? ca : cb).fetchOpenOrders('XRP/USDT')),
    );
    const sent = log(since);
    expect(sent.filter((r) => r.status === 429 || r.status === 418)).toEqual([]);
    expect(sent.reduce((sum, r) => sum + r.weight, 0)).toBeLessThanOrEqual(200 * 0.85);
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      const wait = venueWaitOf((r as PromiseRejectedResult).reason);
      if (!wait) throw (r as PromiseRejectedResult).reason;
      expect(wait).toMatchObject({ scope: 'ip', reason: 'full' });
      expect(wait.resumeAt).toBeGreaterThan(Date.now());
    }
    // Past 80 %: one operator alert, however many processes saw it.
    expect(events.filter((e) => e.kind === 'near-limit')).toHaveLength(1);
    await waitFor(
      async () => (await h.prisma.operatorAlert.count({ where: { kind: 'venue_budget_high' } })) === 1,
    );
  });

  it('after a 429 with Retry-After 10 nothing reaches the venue for 10 s, and the placement error carries the wait', async () => {
    const [a, b] = [processOn('127.0.0.1'), processOn('127.0.0.1')];
    const [ca, cb] = [await a.account(), b.keys()];
    await warm(ca, cb);
    h.sandbox.control.forceOverLimit({ status: 429, retryAfterS: 10 });
    const t0 = Date.now();
    const error = await ca.placeOrder(farBuy(1)).catch((e: unknown) => e);
    const wait = venueWaitOf(error)!;
    expect(wait).toMatchObject({ scope: 'ip', reason: 'closed' });
    expect(wait.resumeAt).toBeGreaterThanOrEqual(t0 + 9_000);
    expect((error as ExchangeError).retryAfterMs).toBeGreaterThan(8_000);
    // The other process learns it from Redis: reads, cancels and the public client all wait.
    while (Date.now() < t0 + 9_500) {
      expect((await refusedWith(cb.fetchOpenOrders('XRP/USDT'))).resumeAt).toBe(wait.resumeAt);
      await refusedWith(cb.cancelOrder('XRP/USDT', { clientOrderId: 'x-none' }));
      await refusedWith(b.venue().fetchLastPrices(['XRP/USDT']));
      await refusedWith(ca.placeOrder(farBuy(2)));
      await sleep(500);
    }
    await sleep(Math.max(0, wait.resumeAt - Date.now() + 50));
    await cb.fetchOpenOrders('XRP/USDT');
    const sent = log(t0);
    // One request met the 429; the next went after Retry-After, so no ban.
    expect(sent.map((r) => r.status)).toEqual([429, 200]);
    expect(sent[1]!.time).toBeGreaterThanOrEqual(wait.resumeAt - 1);
  }, 20_000);

  it('keeps a 418 ban its full length and every client of the IP honours it, cancels included; one alert', async () => {
    const events: BudgetEvent[] = [];
    const [a, b] = [processOn('127.0.0.1', { events }), processOn('127.0.0.1', { events })];
    const [ca, cb] = [a.keys(), await b.account()];
    await warm(ca, cb);
    const alerts = () => h.prisma.operatorAlert.count({ where: { kind: 'venue_blocked' } });
    const alertsBefore = await alerts();
    h.sandbox.control.forceOverLimit({ status: 418, retryAfterS: 120 });
    const t0 = Date.now();
    // Both processes send before either knows: two 418s, one closure, one alert.
    const [wa, wb] = await Promise.all([
      refusedWith(ca.fetchOpenOrders('XRP/USDT')),
      refusedWith(cb.fetchOpenOrders('XRP/USDT')),
    ]);
    expect(wa.resumeAt).toBeGreaterThanOrEqual(t0 + 119_000);
    expect(Math.abs(wa.resumeAt - wb.resumeAt)).toBeLessThan(2_000);
    const c = processOn('127.0.0.1');
    const cancel = await refusedWith(
      (await c.account()).cancelOrder('XRP/USDT', { clientOrderId: 'x-none' }),
    );
    expect(cancel.resumeAt).toBeGreaterThanOrEqual(t0 + 119_000);
    await refusedWith(c.venue().fetchLastPrices(['XRP/USDT']));
    expect(log(t0).map((r) => r.status)).toEqual([418, 418]);
    await waitFor(async () => events.some((e) => e.kind === 'closed'), 5_000);
    expect(events.filter((e) => e.kind === 'closed' && e.started)).toHaveLength(1);
    await waitFor(async () => (await alerts()) === alertsBefore + 1, 5_000);
    await sleep(200);
    expect(await alerts()).toBe(alertsBefore + 1);
    const metrics = await metricsRegistry.metrics();
    expect(metrics).toMatch(
      /gridbot_venue_over_limit_total\{venue="binance:sandbox",status="418",code="-1003"\} [1-9]/,
    );
    expect(metrics).toMatch(
      /gridbot_venue_budget_refused_total\{venue="binance:sandbox",priority="high",reason="closed"\} [1-9]/,
    );
    expect(metrics).toMatch(
      /gridbot_venue_closed_until_seconds\{venue="binance:sandbox",ip="127.0.0.1"\} \d+/,
    );
  });

  it('a second egress IP has its own budget: it trades while the first is banned', async () => {
    const [one, two] = [processOn('127.0.0.1'), processOn('127.0.0.2')];
    const [c1, c2] = [one.keys(), two.keys()];
    await warm(c1, c2);
    h.sandbox.control.forceOverLimit({ status: 418, retryAfterS: 60, ip: '127.0.0.1' });
    const t0 = Date.now();
    await refusedWith(c1.fetchOpenOrders('XRP/USDT'));
    await refusedWith(c1.fetchOpenOrders('XRP/USDT'));
    await c2.fetchOpenOrders('XRP/USDT');
    await c2.fetchLastPrices(['XRP/USDT']);
    expect(log(t0).map((r) => `${r.ip} ${r.status}`)).toEqual([
      '127.0.0.1 418',
      '127.0.0.2 200',
      '127.0.0.2 200',
    ]);
    const metrics = await metricsRegistry.metrics();
    expect(metrics).toMatch(
      /gridbot_venue_budget_used\{venue="binance:sandbox",ip="127.0.0.2",pool="REQUEST_WEIGHT"\} \d+/,
    );
  });

  it('-1015 stops new orders of that account only, until its ORDERS window ends', async () => {
    h.sandbox.control.setLimits({ ORDERS_10S: 2 });
    const [a, b] = [processOn('127.0.0.1'), processOn('127.0.0.1')];
    const other = h.sandbox.control.createAccount({ balances: { USDT: '1000' } });
    const [ca, cb, co] = [a.keys(), b.keys(), b.keys(other)];
    await warm(ca, cb, co);
    await ca.placeOrder(farBuy(11));
    await ca.placeOrder(farBuy(12));
    const t0 = Date.now();
    const wait = await refusedWith(ca.placeOrder(farBuy(13)));
    expect(wait).toMatchObject({ scope: 'account', reason: 'closed' });
    const posts = () => log(t0).filter((r) => r.method === 'POST').length;
    const before = posts();
    // The same account from the other process: new orders refused unsent, reads and cancels go on.
    expect(await refusedWith(cb.placeOrder(farBuy(14)))).toMatchObject({ scope: 'account' });
    expect(posts()).toBe(before);
    await cb.cancelOrder('XRP/USDT', { clientOrderId: farBuy(11).clientOrderId });
    // Another account on the same IP places as usual.
    await co.placeOrder(farBuy(15));
    expect(log(t0).filter((r) => r.status === 418)).toEqual([]);
  });

  it('priorities: above 60 % scans are refused while reads go, above 85 % only cancels and take profits', async () => {
    h.sandbox.control.setLimits({ REQUEST_WEIGHT: 100 });
    const p = processOn('127.0.0.1', { limits: { REQUEST_WEIGHT: 100 } });
    const [c, pub] = [await p.account(), p.venue()];
    await warm(c, pub);
    await awayFromWindowEdge();
    const placed = await c.placeOrder(farBuy(21));
    const t0 = Date.now();
    // The placement weighed 11 (lookup 4, open orders 6, order 1); nine reads more pass 60 %.
    for (let i = 0; i < 9; i++) await c.fetchOpenOrders('XRP/USDT');
    expect(
      await refusedWith(withRequestPriority('low', () => pub.fetchLastPrices(['XRP/USDT']))),
    ).toMatchObject({
      reason: 'full',
    });
    await c.fetchOpenOrders('XRP/USDT');
    let read: ReturnType<typeof venueWaitOf>;
    for (let i = 0; i < 5 && !read; i++) {
      read = await c.fetchOpenOrders('XRP/USDT').then(
        () => undefined,
        (e: unknown) => venueWaitOf(e),
      );
    }
    expect(read).toMatchObject({ reason: 'full' });
    // The cancel still goes, after the scans that were refused.
    const canceled = await c.cancelOrder('XRP/USDT', { clientOrderId: placed.order.clientOrderId! });
    expect(canceled?.status).toBe('canceled');
    const sent = log(t0);
    expect(sent.at(-1)).toMatchObject({ method: 'DELETE', status: 200 });
    expect(sent.filter((r) => r.status !== 200)).toEqual([]);
  });

  it('the usage header is the truth for the IP: weight spent by others slows everyone', async () => {
    h.sandbox.control.setLimits({ REQUEST_WEIGHT: 200 });
    const p = processOn('127.0.0.1', { limits: { REQUEST_WEIGHT: 200 } });
    const c = p.keys();
    await warm(c);
    await awayFromWindowEdge();
    // Something else on this IP (another program, a process without the budget): 160 weight.
    for (let i = 0; i < 2; i++) await fetch(`${h.sandbox.url}/api/v3/ticker/24hr`);
    const t0 = Date.now();
    await c.fetchOpenOrders('XRP/USDT');
    await waitFor(
      async () =>
        await c.fetchOpenOrders('XRP/USDT').then(
          () => false,
          (e: unknown) => venueWaitOf(e)?.reason === 'full',
        ),
    );
    expect(log(t0).filter((r) => r.status !== 200)).toEqual([]);
  });

  it('scans weigh per venue: one last-prices call whatever the symbols', async () => {
    const t0 = Date.now();
    await scanVenuePrices(h.contextFor('scanner', undefined, { SCAN_RANGE_MAX_SYMBOLS: '0' }), {
      venue: VENUE,
      symbols: ['XRP/USDT'],
    });
    const sent = log(t0).filter((r) => r.path.startsWith('/api/v3/ticker'));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ path: '/api/v3/ticker/price', weight: 4 });
  });

  it('a reconcile that meets a ban is deferred until it ends, not retried every 5 s', async () => {
    const queue = createInProcessQueue();
    const ctx = h.contextFor('budget-worker', queue);
    registerReconcile(ctx, 1);
    h.sandbox.control.forceOverLimit({ status: 418, retryAfterS: 8 });
    const t0 = Date.now();
    await queue.enqueue(
      reconcileCoinBotJob,
      { coinBotId: h.bot.id, reason: 'price' },
      { jobId: reconcileJobId(h.bot.id) },
    );
    await sleep(7_000);
    expect(log(t0).map((r) => r.status)).toEqual([418]);
    // Once the ban is over, the deferred job runs and places the bot's orders.
    await waitFor(async () => log(t0).some((r) => r.method === 'POST' && r.status === 200), 15_000);
    expect(log(t0).filter((r) => r.status === 418)).toHaveLength(1);
    await queue.close();
  }, 30_000);
  it("Bybit: a 403 ban closes the IP for every process for the table's 10 minutes, cancels included; one alert", async () => {
    const events: BudgetEvent[] = [];
    const keys = h.sandbox.control.createAccount({ balances: { USDT: '100' } });
    const [a, b] = [processOn('127.0.0.1', { events }), processOn('127.0.0.1', { events })];
    const [ca, cb] = [a.keys(keys, 'bybit'), b.keys(keys, 'bybit')];
    await warm(ca, cb);
    const alerts = () => h.prisma.operatorAlert.count({ where: { kind: 'venue_blocked' } });
    const alertsBefore = await alerts();
    h.sandbox.bybit.limits.ban();
    try {
      const t0 = Date.now();
      const wa = await refusedWith(ca.fetchOpenOrders('XRP/USDT'));
      expect(wa).toMatchObject({ scope: 'ip', reason: 'closed' });
      expect(wa.resumeAt).toBeGreaterThanOrEqual(t0 + 599_000);
      // Bybit lifts it early here; the IP still waits out the ban it was told of, in every process.
      h.sandbox.bybit.limits.reset();
      const wb = await refusedWith(cb.cancelOrder('XRP/USDT', { clientOrderId: 'x-none' }));
      expect(wb).toMatchObject({ scope: 'ip', resumeAt: wa.resumeAt });
      expect(events.filter((e) => e.kind === 'over-limit')).toHaveLength(1);
      await waitFor(async () => (await alerts()) === alertsBefore + 1, 5_000);
    } finally {
      h.sandbox.bybit.limits.reset();
    }
  });

  it.each([
    {
      venue: 'bybit' as const,
      // Bybit applies 1 a second to open-order queries and says so (X-Bapi-Limit): a process that
      // never read it sends, and meets 10006.
      lower: () => h.sandbox.bybit.limits.setLimits({ ORDER_REALTIME: 1 }),
      reset: () => h.sandbox.bybit.limits.reset(),
      code: '10006',
      windowMs: 1000,
      rolling: true,
    },
    {
      venue: 'okx' as const,
      // OKX applies 1 per 2 s to pending-order queries and says nothing: the first refusal is 50011.
      lower: () => h.sandbox.okx.limits.setLimits({ ORDERS_PENDING: 1 }),
      reset: () => h.sandbox.okx.limits.reset(),
      code: '50011',
      windowMs: 2000,
      rolling: false,
    },
  ])(
    '$venue: $code closes that endpoint of that account for every process until it refills; other calls go on; no alert',
    async ({ venue, lower, reset, code, windowMs, rolling }) => {
      const events: BudgetEvent[] = [];
      const keys = h.sandbox.control.createAccount({ balances: { USDT: '100' } });
      const a = processOn('127.0.0.1', { events });
      const ca = a.keys(keys, venue);
      await warm(ca);
      const alerts = () => h.prisma.operatorAlert.count({ where: { kind: 'venue_blocked' } });
      const alertsBefore = await alerts();
      lower();
      try {
        // `a` spends the venue's window; a process that has not read the venue's limit yet sends
        // the next query (a fresh one each try: one that has read it waits by itself). The venue's
        // window may turn between the two: a few tries meet the refusal.
        let refused: ReturnType<typeof venueWaitOf>;
        for (let i = 0; i < 5 && !refused; i++) {
          await ca.fetchOpenOrders('XRP/USDT').catch(() => undefined);
          const fresh = processOn('127.0.0.1', { events }).keys(keys, venue);
          refused = await fresh.fetchOpenOrders('XRP/USDT').then(
            () => undefined,
            (error: unknown) => venueWaitOf(error),
          );
        }
        expect(refused).toMatchObject({ scope: 'account', reason: 'closed' });
        expect(events.filter((e) => e.kind === 'over-limit')).toMatchObject([{ exchangeCode: code }]);
        // The other process learns it from Redis: refused without sending, the same wait.
        expect(await refusedWith(ca.fetchOpenOrders('XRP/USDT'))).toMatchObject({
          resumeAt: refused!.resumeAt,
        });
        expect(events.filter((e) => e.kind === 'over-limit')).toHaveLength(1);
        expect((await ca.fetchBalance()).USDT?.free.toFixed()).toBe('100');
        // Past the closure and the new window's grace (a request in it counts in the spent window
        // before too), or for a rolling window (Bybit's) the slot our staggered windows outlast the
        // venue's by: venue-budget.ts windowsOf.
        const after = rolling ? windowMs / ROLLING_SLOTS : graceOf(windowMs);
        await sleep(Math.max(0, refused!.resumeAt - Date.now()) + after + 20);
        expect(await ca.fetchOpenOrders('XRP/USDT')).toEqual([]);
        expect(await alerts()).toBe(alertsBefore);
      } finally {
        reset();
      }
    },
  );
});
