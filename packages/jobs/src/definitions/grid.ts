import { z } from 'zod';
import { defineJob } from '../define-job';

/** Bring one coin bot's orders in line with its plan (idempotent, single-flight per coin bot). */
export const reconcileCoinBotJob = defineJob({
  name: 'grid.reconcile',
  version: 1,
  payload: z.object({ coinBotId: z.number().int().positive(), reason: z.string().max(40).optional() }),
});

/**
 * One public price scan of a venue (its active symbols, as the schedule found them): enqueue the
 * coin bots whose resting orders were crossed.
 */
export const scanPricesJob = defineJob({
  name: 'grid.scan-prices',
  version: 1,
  payload: z.object({ venue: z.string().max(60), symbols: z.array(z.string().max(40)).max(2000) }),
});

/** The slow periodic sweep: reconcile running coin bots not reconciled for a while. */
export const sweepCoinBotsJob = defineJob({
  name: 'grid.sweep',
  version: 1,
  payload: z.object({ olderThanMs: z.number().int().positive() }),
});

/** Job id that keeps at most one waiting reconcile per coin bot in the queue. */
export const reconcileJobId = (coinBotId: number) => `reconcile-${coinBotId}`;
