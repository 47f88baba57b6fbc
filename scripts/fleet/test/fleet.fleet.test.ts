import Decimal from 'decimal.js';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBooks } from '../check-books';
import {
  callApi,
  connectExchange,
  expectOk,
  type FleetUser,
  payIn,
  signUp,
  waitUntil,
} from '../fleet-client';
import { type Fleet, startFleet } from '../start-fleet';

// The fleet for real (docs/operations.md#fleet): separate OS processes for two api replicas behind
// the proxy, two workers on BullMQ, the watcher, the bot and the sandbox, on PostgreSQL and Redis.
// Users act only over HTTP; every scenario ends with the books checked.
const REDIS_DB = 11;
const redisUrl = `${(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379').replace(/\/\d+$/, '')}/${REDIS_DB}`;
let fleet: Fleet;

const setPrice = async (symbol: string, price: string) => {
  const response = await fetch(`${fleet.sandbox.exchangeUrl}/_sandbox/markets/${symbol}/price`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ price }),
  });
  expect(response.status).toBe(200);
};

const marketPrice = async (symbol: string): Promise<string> => {
  const markets = (await (await fetch(`${fleet.sandbox.exchangeUrl}/_sandbox/markets`)).json()) as Array<{
    symbol: string;
    price: string;
  }>;
  return markets.find((m) => m.symbol === symbol)!.price;
};

const exchangeOrders = async (user: FleetUser) =>
  (await (
    await fetch(`${fleet.sandbox.exchangeUrl}/_sandbox/accounts/${user.apiKey}/orders`)
  ).json()) as Array<{ clientOrderId: string; status: string; side: string }>;

/** A funded user trading XRP: 50 USDT paid in on chain, 10 to the fee balance, a running coin bot. */
const tradingUser = async (): Promise<FleetUser> => {
  const user = await signUp(fleet);
  await payIn(fleet, user, '50');
  await waitUntil(
    'deposit credited',
    async () => (await callApi<{ balances?: { main: string } }>(fleet, user, 'POST', '/wallet')).body,
    (wallet) => wallet.balances?.main === '50',
    { everyMs: 2100, timeoutMs: 90_000 },
  );
  expectOk(await callApi(fleet, user, 'POST', '/wallet/add_money', { query: { summ: '10' } }), 'add_money');
  await connectExchange(fleet, user);
  expectOk(
    await callApi(fleet, user, 'POST', '/portfolio/add_coin/add', { query: { data_send: 'XRP' } }),
    'add coin',
  );
  expectOk(
    await callApi(fleet, user, 'POST', '/portfolio/setting/edit', {
      body: { coin: 'XRP', orderSize: '10', stepPct: '1', stepIncreasePct: '0', maxTrades: 5, dry: false },
    }),
    'settings',
  );
  expectOk(await callApi(fleet, user, 'POST', '/home/start', { query: { coin_name: 'XRP' } }), 'start');
  return user;
};

beforeAll(async () => {
  const redis = new Redis(redisUrl);
  await redis.flushdb();
  redis.disconnect();
  fleet = await startFleet({
    redisUrl,
    // Prices move only when the test moves them; blocks come fast so deposits are final in seconds.
    sandboxTickMs: 0,
    tronBlockMs: 200,
    env: {
      WATCHER_INTERVAL_MS: '300',
      SCAN_INTERVAL_MS: '500',
      SWEEP_INTERVAL_MS: '5000',
      LOG_LEVEL: 'info',
    },
  });
}, 300_000);

afterAll(async () => {
  if (!fleet) return;
  const processes = [...fleet.processes.values()].filter((p) => p.running());
  await fleet.stop();
  // A clean stop: every app drained and exited 0 on SIGTERM.
  expect(
    Object.fromEntries(await Promise.all(processes.map(async (p) => [p.name, await p.exited()]))),
  ).toEqual(Object.fromEntries(processes.map((p) => [p.name, 0])));
}, 120_000);

describe('the fleet', () => {
  it('serves a newcomer end to end: sign-up, a deposit on chain, keys, a running coin bot', async () => {
    const user = await tradingUser();
    // The entry bought at market, then the ladder rests: a take profit and the next buy.
    const orders = await waitUntil(
      'ladder resting on the exchange',
      () => exchangeOrders(user),
      (list) => list.filter((o) => o.status === 'NEW').length >= 2,
    );
    expect(orders.filter((o) => o.status === 'FILLED' && o.side === 'BUY')).toHaveLength(1);
    // Both api processes took requests through the proxy.
    expect([...fleet.proxy.answered.values()].every((n) => n > 0)).toBe(true);
    const books = await waitUntil(
      'books agree',
      () => checkBooks(fleet),
      (r) => r.problems.length === 0,
      {
        timeoutMs: 30_000,
        everyMs: 1000,
      },
    );
    expect(books.exchangeTrades).toBe(books.dbFills);
  }, 240_000);

  it('a worker killed with SIGKILL mid-trading: the other worker carries on, nothing lost or duplicated', async () => {
    const users = await Promise.all([tradingUser(), tradingUser()]);
    for (const user of users) {
      await waitUntil(
        'ladder',
        () => exchangeOrders(user),
        (list) => list.filter((o) => o.status === 'NEW').length >= 2,
      );
    }
    const start = await marketPrice('XRPUSDT');
    const worker = fleet.process('worker-1');
    // Prices swing across the ladders while worker-1 dies in the middle of the fills it causes.
    const swings = ['0.985', '0.97', '1.0', '0.96', '0.99', '1.02'];
    for (const [index, factor] of swings.entries()) {
      await setPrice('XRPUSDT', new Decimal(start).times(factor).toFixed(4));
      if (index === 1) worker.signal('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
    expect(await worker.exited()).toBe('SIGKILL');
    const books = await waitUntil(
      'books agree',
      () => checkBooks(fleet),
      (r) => r.problems.length === 0,
      {
        timeoutMs: 90_000,
        everyMs: 2000,
      },
    );
    expect(books.exchangeTrades).toBeGreaterThan(4);
    // Back to two workers, as a supervisor would restart it.
    await worker.start();
  }, 300_000);
});
