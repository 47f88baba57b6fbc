import { type JobQueue, reconcileCoinBotJob, reconcileJobId } from '@gridbot/jobs';
import { type ReconcileDeps, reconcileCoinBot } from '@gridbot/services';

/** When another run holds the lease or the exchange is not done yet: look again shortly. */
const RETRY_MS = 750;
/** After an error (exchange down, timeouts): back off, the trigger must not be lost. */
const ERROR_RETRY_MS = 5000;

const jitter = (ms: number) => ms + Math.floor(Math.random() * (ms / 3));

/**
 * The reconcile job. It never fails the queue job: a failure is logged and the coin bot is looked
 * at again later (a failed BullMQ job would keep its id and swallow later triggers).
 */
export const registerReconcile = (
  queue: JobQueue,
  deps: ReconcileDeps,
  concurrency: number,
  log: (msg: string) => void,
) => {
  const again = (coinBotId: number, reason: string, delayMs: number) =>
    queue.enqueue(
      reconcileCoinBotJob,
      { coinBotId, reason },
      { jobId: `${reconcileJobId(coinBotId)}-${reason}`, delayMs: jitter(delayMs) },
    );

  queue.process(
    reconcileCoinBotJob,
    async ({ coinBotId }) => {
      try {
        const result = await reconcileCoinBot(deps, coinBotId);
        if (result.status === 'busy' || result.status === 'retry')
          await again(coinBotId, result.status, RETRY_MS);
        if (result.placed || result.canceled || result.filled || result.error) {
          log(
            `coin bot ${coinBotId}: placed ${result.placed}, canceled ${result.canceled}, filled ${result.filled}${result.error ? `, refused ${result.error}` : ''}`,
          );
        }
      } catch (error) {
        log(
          `coin bot ${coinBotId}: reconcile failed, retrying: ${error instanceof Error ? error.message : String(error)}`,
        );
        await again(coinBotId, 'error', ERROR_RETRY_MS);
      }
    },
    { concurrency },
  );
};
