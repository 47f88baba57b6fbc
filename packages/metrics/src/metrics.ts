import { Counter, Gauge, Histogram } from 'prom-client';
import { metricsRegistry } from './registry';

/**
 * Every metric of the platform, defined once (docs/operations.md#metrics lists them with their
 * meaning). Services and packages count here without knowing which app serves `/metrics`: in the
 * embedded process one registry holds everything; a distributed process exposes what it counted.
 * Counting is one labelled increment: no label objects are built by callers (positional
 * `labels(...)`), and label values come from small closed sets so the series stay few.
 */
const registers = [metricsRegistry];

/** API: time from the request's arrival to the reply's last byte, by route pattern, method, status. */
export const httpRequestDuration = new Histogram({
  name: 'gridbot_http_request_duration_seconds',
  help: 'HTTP request latency of the API by route pattern, method and status code',
  labelNames: ['route', 'method', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers,
});

/** One reconcile of a coin bot (docs/grid.md), by outcome: done, busy, retry, missing or error. */
export const reconcileDuration = new Histogram({
  name: 'gridbot_reconcile_duration_seconds',
  help: 'Duration of one coin bot reconcile by outcome (done, busy, retry, missing, error)',
  labelNames: ['outcome'] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers,
});

/** Orders the exchange accepted (a re-sent order it already had is not counted twice). */
export const ordersPlaced = new Counter({
  name: 'gridbot_orders_placed_total',
  help: 'Grid orders placed on the exchange, by side',
  labelNames: ['side'] as const,
  registers,
});

/** Placements that failed, by catalogue code (a rejection for good, or a retryable failure). */
export const ordersFailed = new Counter({
  name: 'gridbot_orders_failed_total',
  help: 'Grid order placements that failed, by error code',
  labelNames: ['code'] as const,
  registers,
});

/** Filled orders applied to the books (lots opened or closed), by side. */
export const fillsApplied = new Counter({
  name: 'gridbot_fills_applied_total',
  help: 'Filled grid orders applied to lots and the ledger, by side',
  labelNames: ['side'] as const,
  registers,
});

/** USDT TRC20 deposits credited to a user's main balance (docs/wallet.md). */
export const depositsCredited = new Counter({
  name: 'gridbot_deposits_credited_total',
  help: 'On-chain USDT deposits credited to users',
  registers,
});

/** Withdrawals by step: sent (broadcast and accepted by the node), confirmed, failed on chain. */
export const withdrawalsProcessed = new Counter({
  name: 'gridbot_withdrawals_total',
  help: 'Withdrawals by outcome: sent (broadcast), confirmed (solidified), failed (refunded)',
  labelNames: ['outcome'] as const,
  registers,
});

/** Ledger transfers written (an idempotent replay writes nothing and is not counted), by type. */
export const ledgerTransfers = new Counter({
  name: 'gridbot_ledger_transfers_total',
  help: 'Ledger transfers written, by transfer type',
  labelNames: ['type'] as const,
  registers,
});

/**
 * The request budget of each venue and egress IP (docs/grid.md#request-budget): the units used in
 * the current window of each IP pool (as this process last saw them: its reservations and the
 * venue's usage headers), and the pool's limit.
 */
export const venueBudgetUsed = new Gauge({
  name: 'gridbot_venue_budget_used',
  help: 'Units used in the current window of a venue IP pool (REQUEST_WEIGHT, RAW_REQUESTS)',
  labelNames: ['venue', 'ip', 'pool'] as const,
  registers,
});

export const venueBudgetLimit = new Gauge({
  name: 'gridbot_venue_budget_limit',
  help: 'The limit of a venue IP pool per window',
  labelNames: ['venue', 'ip', 'pool'] as const,
  registers,
});

/** Requests that waited for room in their window (at most the budget's max wait). */
export const venueBudgetWaits = new Counter({
  name: 'gridbot_venue_budget_waits_total',
  help: 'Exchange requests that waited for room in their request budget window',
  labelNames: ['venue', 'priority'] as const,
  registers,
});

export const venueBudgetWaitSeconds = new Counter({
  name: 'gridbot_venue_budget_wait_seconds_total',
  help: 'Total time exchange requests waited for their request budget',
  labelNames: ['venue'] as const,
  registers,
});

/** Requests not sent: the venue is closed (429/418/-1015) or the priority's share is spent. */
export const venueBudgetRefused = new Counter({
  name: 'gridbot_venue_budget_refused_total',
  help: 'Exchange requests refused before sending (closed venue or spent budget); their work is deferred',
  labelNames: ['venue', 'priority', 'reason'] as const,
  registers,
});

/** Answers over a limit: 429, 418 (ban), by status and Binance code. Expected to stay at 0. */
export const venueOverLimit = new Counter({
  name: 'gridbot_venue_over_limit_total',
  help: 'Venue answers over a limit (HTTP 429 or 418), by status',
  labelNames: ['venue', 'status', 'code'] as const,
  registers,
});

/** Until when (epoch seconds) a venue is closed for an egress IP after a 429/418; 0 when open. */
export const venueClosedUntil = new Gauge({
  name: 'gridbot_venue_closed_until_seconds',
  help: 'Epoch seconds until which nothing is sent to the venue from this IP (Retry-After); in the past when open',
  labelNames: ['venue', 'ip'] as const,
  registers,
});

/** One queue's figures at scrape time (packages/jobs: `JobQueue.stats`). */
export type QueueStats = {
  queue: string;
  waiting: number;
  active: number;
  delayed: number;
  /** Age of the oldest waiting job, ms (0 when none waits). */
  oldestWaitingMs: number;
};

const queueSources = new Set<() => Promise<QueueStats[]>>();

/** Age of the oldest job due to run that has not started (0: none waiting). */
export const queueOldestJobAge = new Gauge({
  name: 'gridbot_queue_oldest_job_age_seconds',
  help: 'Age of the oldest waiting job of each queue (0 when none waits), read at scrape time',
  labelNames: ['queue'] as const,
  registers: [],
});

/**
 * Queue depth by job queue and state, read from the queues when scraped (observeQueues). Its
 * collect also sets the oldest job's age, so one scrape asks each queue once.
 */
export const queueJobs = new Gauge({
  name: 'gridbot_queue_jobs',
  help: 'Jobs in each queue by state (waiting, active, delayed), read at scrape time',
  labelNames: ['queue', 'state'] as const,
  registers: [],
  collect: async () => {
    queueJobs.reset();
    queueOldestJobAge.reset();
    for (const source of queueSources) {
      // An unreachable queue shows no figures (and fails /readyz), rather than failing the scrape.
      const stats = await source().catch(() => []);
      for (const s of stats) {
        queueJobs.labels(s.queue, 'waiting').set(s.waiting);
        queueJobs.labels(s.queue, 'active').set(s.active);
        queueJobs.labels(s.queue, 'delayed').set(s.delayed);
        queueOldestJobAge.labels(s.queue).set(s.oldestWaitingMs / 1000);
      }
    }
  },
});
// In this order: the depth's collect fills the age before the age is read.
metricsRegistry.registerMetric(queueJobs);
metricsRegistry.registerMetric(queueOldestJobAge);

/** Reports these queues' depth on every scrape of this process; returns the way to stop. */
export const observeQueues = (source: () => Promise<QueueStats[]>): (() => void) => {
  queueSources.add(source);
  return () => queueSources.delete(source);
};

/**
 * The hot wallet as the watcher last read it (docs/operations.md#hot-wallet), in the chain's own
 * integer units so no float ever holds money: micro-USDT, sun (1 TRX = 1,000,000 sun), energy and
 * bandwidth points. Set by the process that reads it (the watcher; embedded: the one process).
 */
export const hotWalletUsdt = new Gauge({
  name: 'gridbot_hot_wallet_usdt_micro',
  help: "The hot wallet's USDT, micro-USDT, as last read from the node",
  labelNames: ['address'] as const,
  registers,
});

export const hotWalletTrx = new Gauge({
  name: 'gridbot_hot_wallet_trx_sun',
  help: "The hot wallet's TRX, sun (1 TRX = 1,000,000 sun), as last read from the node",
  labelNames: ['address'] as const,
  registers,
});

export const hotWalletEnergy = new Gauge({
  name: 'gridbot_hot_wallet_energy',
  help: "The hot wallet's staked energy left (EnergyLimit - EnergyUsed)",
  labelNames: ['address'] as const,
  registers,
});

export const hotWalletBandwidth = new Gauge({
  name: 'gridbot_hot_wallet_bandwidth',
  help: "The hot wallet's bandwidth left, staked and free (bytes)",
  labelNames: ['address'] as const,
  registers,
});

export const tronEnergyPrice = new Gauge({
  name: 'gridbot_tron_energy_price_sun',
  help: 'The chain energy price (getEnergyFee), sun per energy',
  registers,
});

export const hotWalletReadTime = new Gauge({
  name: 'gridbot_hot_wallet_read_timestamp_seconds',
  help: 'When the hot wallet was last read from the node (unix seconds)',
  labelNames: ['address'] as const,
  registers,
});

/** Approved withdrawals the hot wallet cannot pay now, by why (docs/wallet.md#network-fees). */
export const withdrawalsWaiting = new Gauge({
  name: 'gridbot_withdrawals_waiting',
  help: "Approved withdrawals waiting for the platform's wallet, by reason (hot_wallet_usdt, hot_wallet_trx, fee_above_max)",
  labelNames: ['reason'] as const,
  registers,
});

/** Sweeps of deposit addresses by outcome: confirmed (moved), failed (on chain), cancelled. */
export const sweepsProcessed = new Counter({
  name: 'gridbot_sweeps_total',
  help: 'Sweeps of deposit addresses by outcome: confirmed, failed, cancelled',
  labelNames: ['outcome'] as const,
  registers,
});

/** TRX the sweeps spent (top-up transactions and the transfers' energy and bandwidth), sun. */
export const sweepsTrxBurned = new Counter({
  name: 'gridbot_sweeps_trx_burned_sun_total',
  help: 'TRX burnt by sweeps (top-ups and transfers), sun',
  registers,
});
