import { reconcileCoinBotJob, reconcileJobId } from '@gridbot/jobs';
import { reconcileCoinBot, type ServiceContext } from '@gridbot/services';
import { jobContext } from './job-context';

/** When another run holds the lease or the exchange is not done yet: look again shortly. */
const RETRY_MS = 750;
/** After an error (exchange down, timeouts): back off, the trigger must not be lost. */
const ERROR_RETRY_MS = 5000;

const jitter = (ms: number) => ms + Math.floor(Math.random() * (ms / 3));

/**
 * The reconcile job's transport. It never fails the queue job: a failure is logged and the coin
 * bot is looked at again later (a failed BullMQ job would keep its id and swallow later triggers).
 */
export const registerReconcile = (ctx: ServiceContext, concurrency: number) => {
  const again = (coinBotId: number, reason: string, delayMs: number) =>
    ctx.queue.enqueue(
      reconcileCoinBotJob,
      { coinBotId, reason },
      { jobId: `${reconcileJobId(coinBotId)}-${reason}`, delayMs: jitter(delayMs) },
    );

  ctx.queue.process(
    reconcileCoinBotJob,
    async ({ coinBotId, reason }, job) => {
      const run = jobContext(ctx, job);
      try {
        const result = await reconcileCoinBot(run, { coinBotId, ...(reason ? { reason } : {}) });
        // A restart reconcile that found the lease taken comes back as one, so its summary is kept.
        const restartBusy = reason === 'restart' && result.status === 'busy';
        if (result.status === 'busy' || result.status === 'retry')
          await again(coinBotId, restartBusy ? 'restart' : result.status, RETRY_MS);
        if (reason === 'restart' && !restartBusy) {
          run.log.info(
            { coinBotId, recovery: true, ...result },
            `coin bot ${coinBotId} after restart: ${result.adopted} orders adopted, ${result.filled} fills applied, ${result.orphansCanceled} orphans cancelled (${result.status})`,
          );
          return;
        }
        if (result.placed || result.canceled || result.filled || result.error) {
          run.log.info(
            { coinBotId, ...result },
            `coin bot ${coinBotId}: placed ${result.placed}, canceled ${result.canceled}, filled ${result.filled}${result.error ? `, refused ${result.error}` : ''}`,
          );
        }
      } catch (error) {
        run.log.warn({ coinBotId, err: error }, `coin bot ${coinBotId}: reconcile failed, retrying`);
        await again(coinBotId, 'error', ERROR_RETRY_MS);
      }
    },
    { concurrency },
  );
};
