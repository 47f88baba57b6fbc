import { type JobQueue, reconcileCoinBotJob, reconcileJobId } from '@gridbot/jobs';
import { type ReconcileDeps, reconcileCoinBot } from '@gridbot/services';

/** A lease held elsewhere means another worker is on it: look again shortly, the trigger must not be lost. */
const BUSY_RETRY_MS = 750;

export const registerReconcile = (
  queue: JobQueue,
  deps: ReconcileDeps,
  concurrency: number,
  log: (msg: string) => void,
) => {
  queue.process(
    reconcileCoinBotJob,
    async ({ coinBotId }) => {
      const result = await reconcileCoinBot(deps, coinBotId);
      if (result.status === 'busy') {
        await queue.enqueue(
          reconcileCoinBotJob,
          { coinBotId, reason: 'busy' },
          {
            jobId: `${reconcileJobId(coinBotId)}-busy`,
            delayMs: BUSY_RETRY_MS + Math.floor(Math.random() * 250),
          },
        );
        return;
      }
      if (result.placed || result.canceled || result.filled || result.error) {
        log(
          `coin bot ${coinBotId}: placed ${result.placed}, canceled ${result.canceled}, filled ${result.filled}${result.error ? `, error ${result.error}` : ''}`,
        );
      }
    },
    { concurrency },
  );
};
