import { Writable } from 'node:stream';
import { createInProcessQueue, type JobQueue, reconcileCoinBotJob, reconcileJobId } from '@gridbot/jobs';
import { createReadiness, type HealthServer, startHealthServer } from '@gridbot/runtime';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { registerReconcile } from '../src/jobs/reconcile';
import { createGridHarness, type Harness } from './support/grid-harness';

/**
 * What an operator sees of the worker (docs/operations.md): its health port's /metrics after real
 * reconciles on the sandbox exchange, and job log lines that name their job.
 */

let h: Harness | undefined;
let queue: JobQueue | undefined;
let health: HealthServer | undefined;
afterEach(async () => {
  await queue?.close();
  await health?.close();
  await h?.close();
  h = undefined;
  queue = undefined;
  health = undefined;
});

const sample = (text: string, series: string): number => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
};

describe('the worker seen by an operator', () => {
  it('/metrics on the health port counts the orders, fills, reconciles and ledger transfers of real trading', async () => {
    h = await createGridHarness();
    health = await startHealthServer({ host: '127.0.0.1', port: 0, readiness: createReadiness([]) });
    const scrape = async () => {
      const res = await fetch(`${health!.url}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      return res.text();
    };
    const before = await scrape();

    // Entry (a market buy that fills), then its take profit fills at 1.02: the lot closes and its
    // trading fee is booked (docs/fees.md).
    await h.reconcile();
    h.setPrice('1.02');
    await h.reconcile();
    expect(await h.closedLots()).toHaveLength(1);

    const after = await scrape();
    const delta = (series: string) => sample(after, series) - sample(before, series);
    expect(delta('gridbot_orders_placed_total{side="buy"}')).toBeGreaterThanOrEqual(2);
    expect(delta('gridbot_orders_placed_total{side="sell"}')).toBeGreaterThanOrEqual(1);
    expect(delta('gridbot_fills_applied_total{side="buy"}')).toBeGreaterThanOrEqual(1);
    expect(delta('gridbot_fills_applied_total{side="sell"}')).toBe(1);
    expect(delta('gridbot_reconcile_duration_seconds_count{outcome="done"}')).toBe(2);
    expect(delta('gridbot_ledger_transfers_total{type="trade_fee"}')).toBe(1);
  });

  it('every log line of a job names the job and its id', async () => {
    h = await createGridHarness();
    const lines: Record<string, unknown>[] = [];
    const log = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _encoding, done) {
          for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
          done();
        },
      }),
    );
    queue = createInProcessQueue();
    registerReconcile({ ...h.contextFor('ops-worker', queue), log }, 1);
    await queue.enqueue(reconcileCoinBotJob, { coinBotId: h.bot.id }, { jobId: reconcileJobId(h.bot.id) });
    await queue.drain();

    const summary = lines.find((l) => String(l.msg).startsWith(`coin bot ${h!.bot.id}: placed`));
    expect(summary).toMatchObject({
      job: 'grid.reconcile.v1',
      jobId: expect.any(String),
      jobKey: reconcileJobId(h.bot.id),
    });
  });
});
