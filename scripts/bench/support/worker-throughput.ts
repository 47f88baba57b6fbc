// Worker throughput through the fleet: ladders placed per second on the sandbox exchange by one
// worker, then by two (docs/performance.md#fleet). Each round uses a fresh group of users signed up
// through the API (sign-in, sandbox exchange keys saved through the API, fee balance booked with the
// ledger's transfer(), one coin added with a 5-lot ladder), then starts every coin bot at once with
// `POST /home/start` while no worker runs (one reconcile job each waits on BullMQ), starts the
// worker(s) and waits until every coin bot has its ladder resting (≥ 2 open orders in the database: the entry filled, its take profit and the next buy).
import type { PrismaClient } from '@gridbot/db';
import { addSmallLadder, callApi, expectOk, type FleetUser } from '../../fleet/fleet-client';
import type { FleetProcess } from '../../fleet/fleet-process';
import type { Fleet } from '../../fleet/start-fleet';
import { readReconciles } from './reconcile-log';
import { seedWallets } from './seed-wallets';
import { signUpFrom } from './sign-up-from';

export type WorkerRound = {
  workers: number;
  coinBots: number;
  /** First to last reconcile, by the workers' log times. */
  seconds: number;
  /** How long the `POST /home/start`s took (their reconciles enqueued, no worker running). */
  startsSeconds: number;
  /** From the workers ready to every ladder resting (includes jobs taken before the ready line). */
  readySeconds: number;
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
  await inBatches(users, 8, (user) => addSmallLadder(fleet, user, coin));
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

/**
 * Starts every trader's coin bot while no worker runs (one reconcile job each waits on BullMQ), then
 * starts `workers` and waits until every ladder rests (or `timeoutMs`). The rate is taken from the
 * workers' own log times, first to last reconcile, so their start-up is not counted.
 */
export const timeLadders = async (
  fleet: Fleet,
  prisma: PrismaClient,
  { users: traders, ids }: { users: FleetUser[]; ids: number[] },
  workers: FleetProcess[],
  logDir: string,
  timeoutMs = 90_000,
): Promise<Omit<WorkerRound, 'workers'>> => {
  const seen = new Set(readReconciles(logDir).map((line) => `${line.worker}@${line.at}`));
  const t0 = performance.now();
  await inBatches(traders, 16, async (user) =>
    expectOk(await callApi(fleet, user, 'POST', '/home/start'), 'start'),
  );
  const startsSeconds = (performance.now() - t0) / 1000;
  await Promise.all(workers.map((worker) => worker.start()));
  const ready = performance.now();
  let resting = 0;
  while (performance.now() - ready < timeoutMs) {
    resting = await laddersResting(prisma, ids);
    if (resting >= traders.length) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const lines = readReconciles(logDir).filter((line) => !seen.has(`${line.worker}@${line.at}`));
  const times = lines.map((line) => line.at);
  const reconciles: Record<string, number> = {};
  for (const line of lines) reconciles[line.worker] = (reconciles[line.worker] ?? 0) + 1;
  return {
    coinBots: resting,
    seconds: (Math.max(...times) - Math.min(...times)) / 1000,
    readySeconds: (performance.now() - ready) / 1000,
    startsSeconds,
    reconciles,
  };
};
