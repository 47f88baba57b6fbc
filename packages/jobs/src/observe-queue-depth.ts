import { observeQueues } from '@gridbot/metrics';
import type { JobQueue } from './define-job';
import { ALL_JOBS } from './definitions/all-jobs';

/**
 * Reports every job queue's depth and oldest waiting job on this process's /metrics, read from
 * the queue at scrape time (nothing is counted per job). Returns the way to stop reporting.
 */
export const observeQueueDepth = (queue: JobQueue): (() => void) =>
  observeQueues(() => queue.stats(ALL_JOBS));
