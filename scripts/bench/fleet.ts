// Fleet benchmark (docs/performance.md#fleet): the distributed topology of docs/fleet.md under load,
// on loopback, bounded and self-stopping. A fresh PostgreSQL database is seeded like the panel bench
// (10,000 users, 100,000 coin bots over 200 symbols, open lots, today's PnL, price marks) plus a
// wallet history (ledger transfer()) and closed deals per user, then a fleet runs on it: sandbox,
// 2 api processes behind the fleet's round-robin proxy, 2 workers, watcher, bot, on a Redis database
// index that was empty. This process sends the load over keep-alive HTTP.
//   1. API (support/fleet-api-load.ts): `POST /home/`, `POST /wallet`, `POST /portfolio/trades`
//      closed loop (16 in flight), interleaved in 3 × 3 s with the floor — two bare Fastify processes
//      (`{ok:true}`) behind the same proxy — with the users round robin so no per-user rate limit is
//      hit (429s counted). Then `POST /home/` at a fixed 500 req/s for 10 s: p50/p99.
//      The workers are stopped meanwhile (the seeded coin bots have no real exchange keys).
//   2. Workers (support/worker-throughput.ts): TRADERS new coin bots started through the API while
//      no worker runs, then one worker takes their reconciles; again with TRADERS more and two
//      workers: ladders placed per second (workers' log times) and the scaling ratio.
// Uses DATABASE_URL (or the local default) and REDIS_URL's server; everything is dropped at the end.
import { join } from 'node:path';
import { createTestDb } from '@gridbot/db/testing';
import { type Fleet, startFleet } from '../fleet/start-fleet';
import { startBareFleet } from './support/bare-fleet';
import { loadAverage, measureApi } from './support/fleet-api-load';
import { freeRedisIndex } from './support/free-redis-index';
import { closeLoadAgent } from './support/http-load';
import { seedDeals } from './support/seed-deals';
import { PANEL_SEED, seedPanel } from './support/seed-panel';
import { seedWallets } from './support/seed-wallets';
import { prepareTraders, timeLadders, type WorkerRound } from './support/worker-throughput';

const TRADERS = 120;
/** `--workers-only` (npx tsx scripts/bench/fleet.ts --workers-only): the worker rounds alone, no seeding, no API load. */
const ONLY_WORKERS = process.argv.includes('--workers-only');

const root = new URL('../..', import.meta.url).pathname;
const fleetDir = join(root, '.data/bench-fleet');

process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const baseRedis = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const testDb = await createTestDb();
if (!testDb.url) throw new Error('the fleet bench needs PostgreSQL (DATABASE_URL)');
const { prisma } = testDb;
const redis = await freeRedisIndex(baseRedis);
const bare = await startBareFleet(2);
let fleet: Fleet | undefined;
let failed = false;

try {
  let started = Date.now();
  const users = ONLY_WORKERS ? [] : await seedPanel(prisma);
  const transfers = await seedWallets(
    prisma,
    users.map((u) => u.id),
  );
  console.log(
    `seeded ${users.length} users, ${users.length * PANEL_SEED.coinsPerUser} coin bots, ${transfers} ledger transfers in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  started = Date.now();
  // The database is the bench's (createTestDb drops it): startFleet keeps a database it was given.
  fleet = await startFleet({
    database: new URL(testDb.url).pathname.slice(1),
    redisUrl: redis.url,
    dir: fleetDir,
    sandboxTickMs: 0,
    env: { SWEEP_INTERVAL_MS: '3600000', SCAN_INTERVAL_MS: '60000' },
  });
  await Promise.all([fleet.process('worker-1').stop(), fleet.process('worker-2').stop()]);
  console.log(
    `fleet up in ${((Date.now() - started) / 1000).toFixed(1)} s (${fleet.url}, Redis ${redis.url})`,
  );

  const markets = (await (await fetch(`${fleet.sandbox.exchangeUrl}/_sandbox/markets`)).json()) as Array<{
    symbol: string;
  }>;
  const coin = (markets[0]?.symbol ?? 'XRPUSDT').replace(/USDT$/, '');
  const firstBot = await seedDeals(prisma, { coin, symbol: `${coin}/USDT` }, PANEL_SEED.lotsPerBot);

  // 1. API through the fleet.
  const apiPass = ONLY_WORKERS || (await measureApi({ fleet, bareUrl: bare.url, users, firstBot }));
  await prisma.$executeRawUnsafe(
    'UPDATE coin_bots SET running = false WHERE user_id <= $1',
    users.at(-1)?.id ?? 0,
  );

  // 2. Workers: one, then two (the seeded coin bots were stopped: they have no real exchange keys).
  const logs = join(fleetDir, 'logs');
  const rounds: WorkerRound[] = [];
  for (const workers of [1, 2]) {
    const traders = await prepareTraders(fleet, prisma, coin, TRADERS, workers);
    const running = Array.from({ length: workers }, (_, i) => (fleet as Fleet).process(`worker-${i + 1}`));
    await Promise.all(running.map((worker) => worker.stop()));
    const round = await timeLadders(fleet, prisma, traders, running, logs);
    rounds.push({ workers, ...round });
    const shares = Object.entries(round.reconciles)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ');
    console.log(
      `${workers} worker${workers > 1 ? 's' : ''}: ${round.coinBots}/${TRADERS} ladders resting, first to last reconcile ${round.seconds.toFixed(2)} s = ` +
        `${(round.coinBots / round.seconds).toFixed(1)} ladders/s (all resting ${round.readySeconds.toFixed(1)} s after the workers were ready; ` +
        `the ${TRADERS} starts took ${round.startsSeconds.toFixed(1)} s before); ` +
        `reconciles that placed or filled: ${shares}; load ${loadAverage()}`,
    );
  }
  const [one, two] = rounds as [WorkerRound, WorkerRound];
  const scaling = two.coinBots / two.seconds / (one.coinBots / one.seconds);
  console.log(
    `worker scaling, 2 workers / 1 worker: ${scaling.toFixed(2)}× (WORKER_CONCURRENCY ${fleet.env.WORKER_CONCURRENCY ?? 'default 4'})`,
  );
  // Like every bench, a missed target is a non-zero exit (docs/performance.md); so is a ladder not placed.
  failed = !apiPass || one.coinBots < TRADERS || two.coinBots < TRADERS;
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  closeLoadAgent();
  await fleet?.stop();
  await bare.stop();
  await testDb.close();
  await redis.release();
}
process.exit(failed ? 1 : 0);
