import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tronAddressOfPrivateKey } from '@gridbot/services';
import Decimal from 'decimal.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBooks } from '../check-books';
import {
  callApi,
  expectOk,
  type FleetUser,
  marketPrice,
  payIn,
  setMarketPrice,
  startTradingUser,
  waitUntil,
} from '../fleet-client';
import { type PrivateService, startPrivatePostgres, startPrivateRedis } from '../private-services';
import { type Fleet, startFleet } from '../start-fleet';

// The fleet for real and its faults (docs/fleet.md): separate OS processes for two api replicas
// behind the proxy, two workers on BullMQ, the watcher, the bot and the sandbox, on a PostgreSQL
// and a Redis of the test's own (so they can be restarted and flushed). Users act only over HTTP.
// Every scenario ends with the books checked: the ledger's invariants, and for every exchange
// account the same resting orders on the exchange and in the database, no client order id sent
// twice, one fill per exchange trade, one lot per filled buy.
const SYMBOL = 'XRPUSDT';
let postgres: PrivateService;
let redis: PrivateService;
let fleet: Fleet;
let traders: FleetUser[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const booksAgree = async (timeoutMs = 120_000) => {
  const books = await waitUntil(
    'books agree',
    () => checkBooks(fleet),
    (r) => r.problems.length === 0,
    {
      timeoutMs,
      everyMs: 2000,
    },
  );
  expect(books.exchangeTrades).toBe(books.dbFills);
  return books;
};

/** Prices swing across the ladders (buys at −1 %, take profits at +1 %), `pauseMs` apart. */
const swing = async (factors: string[], pauseMs = 1500, during?: (index: number) => Promise<void>) => {
  const start = new Decimal(await marketPrice(fleet, SYMBOL));
  for (const [index, factor] of factors.entries()) {
    await setMarketPrice(fleet, SYMBOL, start.times(factor).toFixed(4));
    await during?.(index);
    await sleep(pauseMs);
  }
  // Back where it started, so the next scenario finds ladders around the price.
  await setMarketPrice(fleet, SYMBOL, start.toFixed(4));
};

const tradesSoFar = async () => (await checkBooks(fleet)).exchangeTrades;

const sql = async <T extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> => {
  const client = new pg.Client({ connectionString: fleet.databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
};

beforeAll(async () => {
  const base = 20_000 + Math.floor(Math.random() * 20_000);
  postgres = await startPrivatePostgres(
    join(tmpdir(), `gridbot-fleet-pg-${randomBytes(3).toString('hex')}`),
    base,
  );
  redis = await startPrivateRedis(base + 1);
  fleet = await startFleet({
    serverUrl: postgres.url,
    redisUrl: redis.url,
    // Prices move only when a scenario moves them; blocks come fast so deposits are final in seconds.
    sandboxTickMs: 0,
    tronBlockMs: 200,
    env: {
      WATCHER_INTERVAL_MS: '300',
      SCAN_INTERVAL_MS: '500',
      SWEEP_INTERVAL_MS: '5000',
      WITHDRAW_AUTO_APPROVE_USDT: '100',
      // A new address usable at once and no release delay: the scenarios kill processes, not wait
      // (the protections have their own tests, docs/wallet.md#protections). The owner's notice is
      // still sent by the bot before the watcher signs.
      WITHDRAW_ADDRESS_LOCK_HOURS: '0',
      WITHDRAW_RELEASE_DELAY_S: '0',
    },
  });
  // Six accounts trading: each worker follows about half of their order streams and takes the
  // others' over when one dies.
  traders = await Promise.all(Array.from({ length: 6 }, () => startTradingUser(fleet)));
}, 420_000);

afterAll(async () => {
  const processes = fleet ? [...fleet.processes.values()].filter((p) => p.running()) : [];
  await fleet?.stop();
  await redis?.remove();
  await postgres?.remove();
  // A clean stop: every app still running drained and exited 0 on SIGTERM.
  expect(
    Object.fromEntries(await Promise.all(processes.map(async (p) => [p.name, await p.exited()]))),
  ).toEqual(Object.fromEntries(processes.map((p) => [p.name, 0])));
}, 180_000);

describe('the fleet', () => {
  it('serves users through both api processes: sign-up, a deposit on chain, keys, running coin bots', async () => {
    expect([...fleet.proxy.answered.values()].every((n) => n > 0)).toBe(true);
    const books = await booksAgree();
    // Each trader's entry bought at market.
    expect(books.exchangeTrades).toBeGreaterThanOrEqual(traders.length);
  });

  it('a worker killed with SIGKILL mid-trading: the other worker carries on, nothing lost or duplicated', async () => {
    const before = await tradesSoFar();
    const worker = fleet.process('worker-1');
    await swing(['0.985', '0.97', '1.0', '0.96', '0.99', '1.02'], 1500, async (index) => {
      if (index === 1) worker.signal('SIGKILL');
    });
    expect(await worker.exited()).toBe('SIGKILL');
    const books = await booksAgree();
    expect(books.exchangeTrades).toBeGreaterThan(before);
    await worker.start();
  });

  it('the exchange answering 503, late and -1007 for a while: no duplicate order, every fill applied', async () => {
    const before = await tradesSoFar();
    for (const outage of [
      { kind: 'unknown', forMs: 6000 },
      { kind: 'error', forMs: 6000 },
      { kind: 'timeout', forMs: 8000, delayMs: 12_000 },
    ]) {
      const response = await fetch(`${fleet.sandbox.exchangeUrl}/_sandbox/faults/outage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(outage),
      });
      expect(response.status).toBe(200);
      await swing(['0.985', '1.0', '0.97', '1.01'], 1500);
    }
    const books = await booksAgree(180_000);
    expect(books.exchangeTrades).toBeGreaterThan(before);
  });

  it('PostgreSQL restarted mid-run: the apps recover without a hand', async () => {
    const before = await tradesSoFar();
    await postgres.stop();
    await sleep(3000);
    await postgres.start();
    await swing(['0.985', '0.97', '1.0', '1.015'], 1500);
    for (const p of fleet.processes.values())
      expect({ name: p.name, running: p.running() }).toEqual({ name: p.name, running: true });
    // Users are served again.
    const panel = await waitUntil(
      'panel answers',
      () => callApi(fleet, traders[0]!, 'POST', '/home/'),
      (a) => a.status === 200,
      { everyMs: 2100, timeoutMs: 60_000 },
    );
    expect(panel.status).toBe(200);
    const books = await booksAgree();
    expect(books.exchangeTrades).toBeGreaterThan(before);
  });

  it('Redis flushed and restarted: queues and locks are rebuilt from the database', async () => {
    const before = await tradesSoFar();
    await redis.kill();
    await redis.start();
    await swing(['0.985', '0.97', '1.0', '1.015'], 1500);
    for (const p of fleet.processes.values())
      expect({ name: p.name, running: p.running() }).toEqual({ name: p.name, running: true });
    const books = await booksAgree();
    expect(books.exchangeTrades).toBeGreaterThan(before);
  });

  it('the watcher killed mid deposit scan and mid withdrawal: credited once, sent once', async () => {
    const user = traders[1]!;
    const watcher = fleet.process('watcher');
    // A deposit, with the watcher killed while it follows the blocks that make it final.
    const { address } = await payIn(fleet, user, '30');
    await sleep(700);
    watcher.signal('SIGKILL');
    await watcher.exited();
    await watcher.start();
    // A withdrawal, with the watcher killed right after it takes it up.
    // Somebody else's address outside the platform.
    const destination = tronAddressOfPrivateKey(randomBytes(32).toString('hex'));
    expectOk(
      await callApi(fleet, user, 'POST', '/wallet/add_withdraw_address', { query: { address: destination } }),
      'withdraw address',
    );
    const key = `fleet-withdraw-${randomBytes(6).toString('hex')}`;
    await waitUntil(
      'deposit credited once',
      async () => (await callApi<{ balances?: { main: string } }>(fleet, user, 'POST', '/wallet')).body,
      (wallet) => wallet.balances?.main === new Decimal(40).plus(30).toFixed(0),
      { everyMs: 2100, timeoutMs: 120_000 },
    );
    expectOk(
      await callApi(fleet, user, 'POST', '/wallet/withdraw_money', {
        query: { summ: '20' },
        headers: { 'idempotency-key': key },
      }),
      'withdraw',
    );
    await sleep(400);
    watcher.signal('SIGKILL');
    await watcher.exited();
    await watcher.start();
    const withdrawals = await waitUntil(
      'withdrawal confirmed',
      () =>
        sql<{ status: string; txid: string | null }>(
          'SELECT status, txid FROM withdrawals WHERE user_id = (SELECT id FROM users WHERE uid = $1)',
          [user.uid],
        ),
      (rows) => rows.length === 1 && rows[0]!.status === 'confirmed',
      { timeoutMs: 120_000, everyMs: 1000 },
    );
    // Sent once: the chain holds one USDT transfer from the hot wallet to the destination.
    const balances = (await (
      await fetch(`${fleet.sandbox.tronUrl}/_sandbox/tron/balances/${destination}`)
    ).json()) as { usdt: string };
    expect(new Decimal(balances.usdt).toFixed(6)).toBe(new Decimal(20).minus(1).toFixed(6));
    expect(withdrawals[0]!.txid).toBeTruthy();
    const deposits = await sql<{ n: string }>(
      "SELECT count(*)::text AS n FROM chain_deposits WHERE to_address = $1 AND status = 'credited'",
      [address],
    );
    expect(deposits[0]!.n).toBe('2');
    await booksAgree();
  });

  it('an api process killed under load: clients retry with their keys, nothing lost or duplicated', async () => {
    const [from, to] = traders as [FleetUser, FleetUser];
    const balance = async (user: FleetUser) =>
      new Decimal(
        (
          await waitUntil(
            'wallet',
            () => callApi<{ balances: { main: string } }>(fleet, user, 'POST', '/wallet'),
            (a) => a.status === 200,
            { everyMs: 2100 },
          )
        ).body.balances.main,
      );
    const [fromBefore, toBefore] = [await balance(from), await balance(to)];
    const api = fleet.process('api-1');
    // 30 transfers of 1 USDT from 6 clients at once; each is retried with its own key until answered.
    const keys = Array.from(
      { length: 30 },
      (_, i) => `fleet-transfer-${i}-${randomBytes(6).toString('hex')}`,
    );
    let retried = 0;
    const send = async (key: string) => {
      for (let attempt = 0; attempt < 60; attempt += 1) {
        try {
          const answer = await callApi(fleet, from, 'POST', '/wallet/inner_transaction', {
            query: { summ: '1', to_user: String(to.uid) },
            headers: { 'idempotency-key': key },
          });
          if (answer.status === 200) return;
          if (answer.status !== 429 && answer.status < 500)
            throw new Error(`transfer refused: ${JSON.stringify(answer.body)}`);
        } catch (error) {
          if (error instanceof Error && error.message.startsWith('transfer refused')) throw error;
        }
        retried += 1;
        await sleep(300);
      }
      throw new Error(`transfer ${key} never answered`);
    };
    const clients = Array.from({ length: 6 }, (_, c) => async () => {
      for (const key of keys.filter((_, i) => i % 6 === c)) await send(key);
    });
    const load = Promise.all(clients.map((client) => client()));
    await sleep(800);
    api.signal('SIGKILL');
    await load;
    expect(await api.exited()).toBe('SIGKILL');
    await api.start();
    // Each logical transfer moved the money once.
    expect((await balance(from)).toFixed(6)).toBe(fromBefore.minus(30).toFixed(6));
    expect((await balance(to)).toFixed(6)).toBe(toBefore.plus(30).toFixed(6));
    console.log(`api killed under load: 30 transfers, ${retried} retries`);
    await booksAgree();
  });
});
