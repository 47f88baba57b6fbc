// Order stream benchmark (docs/grid.md#triggers): how long from a fill on the exchange to the fill
// recorded and the next orders placed, when only the order stream can notice it (the price dips
// through a resting order and comes back before the next scan). Target: p99 ≤ 3 s in the demo
// (PGlite, in-process queue, sandbox exchange over HTTP + WebSocket). Floor: the same change
// handled by calling reconcile directly at the moment of the fill (no stream, no queue); the
// ratio is what the stream trigger adds. Uses DATABASE_URL when set, else PGlite (the demo).
import { setTimeout as sleep } from 'node:timers/promises';
import { createInProcessQueue } from '@gridbot/jobs';
import { startWorker } from '../../apps/worker/src/start-worker';
import { createGridHarness, type Harness } from '../../apps/worker/test/support/grid-harness';

/** 20 dips and 20 spikes: 40 fills per run. */
const ROUNDS = 20;

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] ?? Number.NaN;

let debugState: () => Promise<string> = async () => '';
const waitFor = async (check: () => Promise<boolean>) => {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`state not reached within 60 s: ${await debugState()}`);
    await sleep(5);
  }
};

const openInDb = (h: Harness) => h.prisma.order.count({ where: { coinBotId: h.bot.id, status: 'open' } });
/** Lot 2 opened at 0.99 with its take profit and the next buy resting (dip and back). */
const dipDone = (h: Harness) => async () =>
  (await h.openLots()).length === 2 && (await openInDb(h)) === 3 && (await h.ladder()).length === 3;
/** Lot 2 closed at its take profit and the buy at 0.99 resting again (spike and back). */
const spikeDone = (h: Harness, closed: number) => async () =>
  (await h.closedLots()).length === closed &&
  (await openInDb(h)) === 2 &&
  (await h.ladder()).join() === 'buy@0.9900,sell@1.0100';

/** Runs ROUNDS dips and spikes; `handle` is what happens right after each move. */
const measure = async (h: Harness, handle: () => Promise<unknown>) => {
  debugState = async () =>
    JSON.stringify({
      open: (await h.openLots()).map((l) => l.buyPrice.toString()),
      closed: (await h.closedLots()).length,
      ladder: await h.ladder(),
      db: await h.prisma.order.findMany({
        where: { status: { in: ['open', 'pending'] } },
        select: { key: true, status: true, price: true },
      }),
      ms,
    });
  const ms: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const closed = (await h.closedLots()).length + 1;
    let t0 = performance.now();
    h.setPrice('0.985');
    h.setPrice('0.995');
    await handle();
    await waitFor(dipDone(h));
    ms.push(performance.now() - t0);
    t0 = performance.now();
    h.setPrice('1');
    h.setPrice('0.995');
    await handle();
    await waitFor(spikeDone(h, closed));
    ms.push(performance.now() - t0);
  }
  return ms;
};

const report = (name: string, ms: number[]) =>
  console.log(
    `${name}: ${ms.length} fills, p50 ${percentile(ms, 50).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms, max ${Math.max(...ms).toFixed(0)} ms`,
  );

const floorHarness = await createGridHarness();
let floor: number[];
try {
  await floorHarness.reconcile();
  floor = await measure(floorHarness, () => floorHarness.reconcile());
} finally {
  await floorHarness.close();
}

const h = await createGridHarness();
const queue = createInProcessQueue();
const worker = await startWorker({
  ctx: h.contextFor('bench-worker', queue),
  scanIntervalMs: 2000,
  sweepIntervalMs: 3_600_000,
  sweepAfterMs: 3_600_000,
});
let streamed: number[];
try {
  await h.reconcile();
  const accountId = h.sandbox.control.account(h.keys.apiKey).accountId;
  await waitFor(async () => h.sandbox.userDataStreams.subscriberCount(accountId) > 0);
  streamed = await measure(h, async () => undefined);
} finally {
  await worker.stop();
  await queue.close();
  await h.close();
}

report('floor (reconcile called at the fill)', floor);
report('order stream (fill → recorded → next orders)', streamed);
const p99 = percentile(streamed, 99);
console.log(
  `ratio p50 ${(percentile(streamed, 50) / percentile(floor, 50)).toFixed(2)}×; target p99 ≤ 3000 ms: ${p99 <= 3000 ? 'met' : 'MISSED'}`,
);
process.exit(p99 <= 3000 ? 0 : 1);
