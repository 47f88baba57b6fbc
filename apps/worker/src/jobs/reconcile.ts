import { type RequestPriority, venueWaitOf, withRequestPriority } from '@gridbot/exchange';
import { reconcileCoinBotJob, reconcileJobId, scanPricesJob } from '@gridbot/jobs';
import { reconcileCoinBot, type ServiceContext } from '@gridbot/services';
import { jobContext } from './job-context';

/** When another run holds the lease or the exchange is not done yet: look again shortly. */
const RETRY_MS = 750;
/** After an error (exchange down, timeouts): back off, the trigger must not be lost. */
const ERROR_RETRY_MS = 5000;

const jitter = (ms: number) => ms + Math.floor(Math.random() * (ms / 3));

/**
 * The priority of a reconcile's requests, from why it runs (docs/grid.md#request-budget): a fill
 * from the order stream leads to a take profit, a sweep is the slow safety net. Each request may
 * still rise (a cancel or a sell goes first) or fall (a buy is never above normal).
 */
export const reconcilePriority = (reason: string | undefined): RequestPriority =>
  reason === 'stream' ? 'high' : reason === 'sweep' ? 'low' : 'normal';

/**
 * The reconcile job's transport. It never fails the queue job: a failure is logged and the coin
 * bot is looked at again later (a failed BullMQ job would keep its id and swallow later triggers).
 * A failure that carries the venue's wait (429/418, -1015, a spent budget) is deferred until the
 * wait ends, never retried sooner; when the venue closed this worker's whole IP, the worker also
 * stops taking exchange work until then, so workers on other IPs take it.
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
        const result = await withRequestPriority(reconcilePriority(reason), () =>
          reconcileCoinBot(run, { coinBotId, ...(reason ? { reason } : {}) }),
        );
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
        const wait = venueWaitOf(error);
        if (!wait) {
          run.log.warn({ coinBotId, err: error }, `coin bot ${coinBotId}: reconcile failed, retrying`);
          await again(coinBotId, 'error', ERROR_RETRY_MS);
          return;
        }
        await deferReconcile(ctx, { coinBotId, reason, wait, log: run.log });
      }
    },
    { concurrency },
  );

  const deferReconcile = async (
    c: ServiceContext,
    d: {
      coinBotId: number;
      reason: string | undefined;
      wait: NonNullable<ReturnType<typeof venueWaitOf>>;
      log: ServiceContext['log'];
    },
  ) => {
    const delayMs = Math.max(0, d.wait.resumeAt - Date.now());
    const closedIp = d.wait.scope === 'ip' && d.wait.reason === 'closed';
    if (closedIp) {
      // The venue closed this IP: this worker holds its exchange work and the job goes back at
      // once, for a worker on another IP; with none, it waits in the queue until the hold ends.
      c.queue.hold(reconcileCoinBotJob, d.wait.resumeAt);
      c.queue.hold(scanPricesJob, d.wait.resumeAt);
    }
    d.log.info(
      { coinBotId: d.coinBotId, ...d.wait, resumeAt: new Date(d.wait.resumeAt).toISOString() },
      `coin bot ${d.coinBotId}: deferred ${Math.ceil(delayMs / 1000)} s (${d.wait.reason}, ${d.wait.scope})`,
    );
    // The reason travels on (a deferred fill keeps its priority); jobId `-deferred` keeps one.
    await c.queue.enqueue(
      reconcileCoinBotJob,
      { coinBotId: d.coinBotId, ...(d.reason ? { reason: d.reason } : {}) },
      { jobId: `${reconcileJobId(d.coinBotId)}-deferred`, ...(closedIp ? {} : { delayMs }) },
    );
  };
};
