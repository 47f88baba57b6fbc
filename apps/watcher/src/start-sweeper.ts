import {
  type ChainContext,
  processSweeps,
  queueSweeps,
  type SweeperKeys,
  type TronNodeClient,
} from '@gridbot/services';
import { startPassLoop } from './pass-loop';

export type SweeperOptions = {
  ctx: ChainContext;
  /**
   * The watcher's node client: one request budget and one back-off for the process, so a wait the
   * node asked for (429 / 403 / 503) holds the sweeper too (docs/wallet.md#within-trongrids-budget).
   */
  node: TronNodeClient;
  /** The hot wallet (pays the top-ups) and the deposit keys (loadDepositKeys: only this loop holds them). */
  keys: SweeperKeys;
  /** Pause between passes (WATCHER_INTERVAL_MS): open sweeps advance, requested ones start. */
  intervalMs: number;
  /** How often it queues every eligible address by itself (SWEEP_AUTO_INTERVAL_MS; 0: on request only). */
  autoIntervalMs: number;
};

export type Sweeper = {
  node: TronNodeClient;
  runOnce: () => Promise<void>;
  stop: () => Promise<void>;
};

/**
 * The sweeper loop (docs/wallet.md#sweeps), beside the watcher's in the same process: every
 * `intervalMs` it carries the open sweeps forward — those the CLI's `sweeps run` queued, and every
 * `autoIntervalMs` those it queues itself for each address holding at least SWEEP_MIN_USDT of
 * credited USDT. No node call while no sweep is open, nor while the node asks to wait. One pass at
 * a time; a failed pass is logged and the next starts over from the rows.
 */
export const startSweeper = (options: SweeperOptions): Sweeper => {
  const { ctx, keys, node } = options;
  let lastAuto = Number.NEGATIVE_INFINITY;

  const pass = async () => {
    if (node.resumeAt() > Date.now()) return;
    try {
      const now = ctx.clock.now().getTime();
      if (options.autoIntervalMs > 0 && now - lastAuto >= options.autoIntervalMs) {
        lastAuto = now;
        const queued = await queueSweeps(ctx, { requestedBy: 'auto' });
        if (queued.length > 0) ctx.log.info({ sweeps: queued.length }, 'sweeps queued');
      }
      const result = await processSweeps(ctx, node, keys);
      if (result.signed + result.confirmed + result.failed + result.cancelled > 0) {
        ctx.log.info({ sweeps: result }, 'sweeper pass');
      }
    } catch (error) {
      ctx.log.error({ err: error }, 'sweeper pass failed');
    }
  };
  const loop = startPassLoop(pass, options.intervalMs);
  ctx.log.info({ autoIntervalMs: options.autoIntervalMs }, 'sweeper started');
  return { node, ...loop };
};
