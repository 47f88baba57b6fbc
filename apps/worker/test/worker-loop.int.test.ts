import { createInProcessQueue, type JobQueue } from '@gridbot/jobs';
import { afterEach, describe, expect, it } from 'vitest';
import { startWorker } from '../src/start-worker';
import { createGridHarness, type Harness } from './support/grid-harness';
import { waitFor } from './support/wait-for';

let h: Harness | undefined;
let queue: JobQueue | undefined;
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  await queue?.close();
  await h?.close();
  h = undefined;
  queue = undefined;
  stop = undefined;
});

describe('the running worker', () => {
  it('the sweep starts a new coin bot and the price scan reacts to a crossed take profit', async () => {
    h = await createGridHarness();
    const harness = h;
    queue = createInProcessQueue();
    const worker = await startWorker({
      ctx: harness.contextFor('worker-loop', queue),
      scanIntervalMs: 200,
      sweepIntervalMs: 300,
      sweepAfterMs: 60_000,
    });
    stop = worker.stop;
    // Never reconciled: the sweep picks it up and the entry happens.
    await waitFor(
      async () => (await harness.openLots()).length === 1 && (await harness.ladder()).length === 2,
    );

    // The price crosses the take profit: the next scan enqueues the coin bot (the sweep would not
    // for another minute), the lot closes and the bot re-enters.
    harness.setPrice('1.02');
    await waitFor(
      async () => (await harness.closedLots()).length === 1 && (await harness.openLots()).length === 1,
    );
    expect((await harness.openLots())[0]!.buyPrice.toString()).toBe('1.02');
    // Two waits on 200–300 ms loops: a loaded shared machine has taken 26–29 s.
  }, 60_000);
});
