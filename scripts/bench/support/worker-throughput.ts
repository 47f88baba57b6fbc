// Worker throughput through the fleet: ladders placed per second on the sandbox exchange by one
// worker, then by two (docs/performance.md#fleet). Each round uses a fresh group of users signed up
// through the API (sign-in, sandbox exchange keys saved through the API, fee balance booked with the
// ledger's transfer(), one coin added with a 5-lot ladder), then starts every coin bot at once with
// `POST /home/start` (one reconcile job each on BullMQ) and waits until every coin bot has its ladder
// resting (≥ 2 open orders in the database: the entry filled, its take profit and the next buy).
import type { PrismaClient } from '@gridbot/db';
import { callApi, connectExchange, expectOk, type FleetUser } from '../../fleet/fleet-client';
import type { Fleet } from '../../fleet/start-fleet';
import { seedWallets } from './seed-wallets';
import { signUpFrom } from './sign-up-from';

export type WorkerRound = {
  workers: number;
  coinBots: number;
  seconds: number;
  /** When the last `POST /home/start` had answered (its reconcile enqueued). */
  startsSeconds: number;
  /** Reconciles that placed or filled, per worker process. */
  reconciles: Record<string, number>;
};

const inBatches = async <T, R>(items: T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> => {
  const out: R[] = [];
  let cursor = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      for (let i = cursor++; i < items.length; i = cursor++) out[i] = await run(items[i] as T);
    }),
  );
  return out;
};

/** N users, each with a sandbox exchange account, a funded fee balance and `coin` set up (not started). */
export const prepareTraders = async (
  fleet: Fleet,
  prisma: PrismaClient,
  coin: string,
  count: number,
  round: number,
): Promise<{ users: FleetUser[]; ids: number[] }> => {
  // 20 sign-ups per source address: under the per-IP sign-in limit. `round` keeps rounds apart.
  const users = await inBatches(
    Array.from({ length: count }, (_, i) => i),
    8,
    (i) => signUpFrom(fleet, `127.0.${10 + round}.${1 + Math.floor(i / 20)}`),
  );
  const rows = await prisma.user.findMany({
    where: { uid: { in: users.map((u) => u.uid) } },
    select: { id: true },
  });
  const ids = rows.map((row) => row.id);
  await seedWallets(prisma, ids, 4);
  await inBatches(users, 8, async (user) => {
    await connectExchange(fleet, user);
    expectOk(
      await callApi(fleet, user, 'POST', '/portfolio/add_coin/add', { query: { data_send: coin } }),
      'add coin',
    );
    expectOk(
      await callApi(fleet, user, 'POST', '/portfolio/setting/edit', {
        body: { coin, orderSize: '10', stepPct: '1', stepIncreasePct: '0', maxTrades: 5, dry: false },
      }),
      'settings',
    );
  });
  return { users, ids };
};

const laddersResting = async (prisma: PrismaClient, userIds: number[]): Promise<number> => {
  const [row] = await prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
    `SELECT count(*) AS n FROM (
       SELECT b.id FROM coin_bots b JOIN orders o ON o.coin_bot_id = b.id AND o.status = 'open'
        WHERE b.user_id = ANY($1::int[]) GROUP BY b.id HAVING count(*) >= 2) ladders`,
    userIds,
  );
  return Number(row?.n ?? 0);
};

/** Starts every trader's coin bot and times until every ladder rests (or `timeoutMs`). */
export const timeLadders = async (
  fleet: Fleet,
  prisma: PrismaClient,
  { users: traders, ids }: { users: FleetUser[]; ids: number[] },
  countReconciles: () => Record<string, number>,
  timeoutMs = 60_000,
): Promise<Omit<WorkerRound, 'workers'>> => {
  const reconcilesBefore = countReconciles();
  const t0 = performance.now();
  await inBatches(traders, 16, async (user) =>
    expectOk(await callApi(fleet, user, 'POST', '/home/start'), 'start'),
  );
  const startsSeconds = (performance.now() - t0) / 1000;
  let resting = 0;
  while (performance.now() - t0 < timeoutMs) {
    resting = await laddersResting(prisma, ids);
    if (resting >= traders.length) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const seconds = (performance.now() - t0) / 1000;
  const after = countReconciles();
  const reconciles = Object.fromEntries(
    Object.entries(after).map(([name, n]) => [name, n - (reconcilesBefore[name] ?? 0)]),
  );
  return { coinBots: resting, seconds, startsSeconds, reconciles };
};
