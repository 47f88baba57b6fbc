import type { PrismaClient } from '@gridbot/db';
import type { BudgetEvent } from '@gridbot/exchange';
import {
  venueBudgetLimit,
  venueBudgetRefused,
  venueBudgetUsed,
  venueBudgetWaitSeconds,
  venueBudgetWaits,
  venueClosedUntil,
  venueOverLimit,
} from '@gridbot/metrics';
import type { Logger } from '../context/service-context';
import { queueOperatorAlert } from '../operators/queue-operator-alert';

const hourOf = (at: number) => new Date(at).toISOString().slice(0, 13);

/**
 * What the request budget reports, turned into metrics, log lines and operator alerts
 * (docs/grid.md#request-budget, docs/operations.md#metrics): an IP past 80 % of a window (once an
 * hour and IP), and a closure by the venue (once per closure: only the process that opened it
 * alerts, and the dedupe key is the closure's end).
 */
export const createBudgetEventSink =
  (deps: { prisma: PrismaClient; log: Logger }) =>
  (event: BudgetEvent): void => {
    const alert = (run: () => Promise<unknown>) =>
      void run().catch((error: unknown) => deps.log.warn({ err: error }, 'venue budget alert not queued'));
    switch (event.kind) {
      case 'usage':
        venueBudgetUsed.labels(event.venue, event.ip, event.pool).set(event.used);
        venueBudgetLimit.labels(event.venue, event.ip, event.pool).set(event.limit);
        return;
      case 'near-limit':
        deps.log.warn(event, `${event.venue} budget of IP ${event.ip} past 80 %`);
        alert(() =>
          queueOperatorAlert(deps.prisma, {
            kind: 'venue_budget_high',
            data: {
              venue: event.venue,
              ip: event.ip,
              pool: event.pool,
              used: event.used,
              limit: event.limit,
            },
            dedupeKey: `venue_budget_high:${event.venue}:${event.ip}:${hourOf(Date.now())}`,
          }),
        );
        return;
      case 'waited':
        venueBudgetWaits.labels(event.venue, event.priority).inc();
        venueBudgetWaitSeconds.labels(event.venue).inc(event.ms / 1000);
        return;
      case 'refused':
        venueBudgetRefused.labels(event.venue, event.priority, event.reason).inc();
        return;
      case 'over-limit':
        venueOverLimit.labels(event.venue, String(event.status), event.exchangeCode ?? '').inc();
        deps.log.warn(event, `${event.venue} answered ${event.status} to IP ${event.ip}`);
        return;
      case 'closed':
        // One endpoint's pool (Bybit's 10006, OKX's 50011) waits its window: no IP is blocked.
        if (event.scope !== 'ip' || event.pool) return;
        venueClosedUntil.labels(event.venue, event.ip).set(Math.ceil(event.until / 1000));
        if (!event.started) return;
        deps.log.error(
          event,
          `${event.venue} closed IP ${event.ip} until ${new Date(event.until).toISOString()}`,
        );
        alert(() =>
          queueOperatorAlert(deps.prisma, {
            kind: 'venue_blocked',
            data: { venue: event.venue, ip: event.ip, status: event.status, until: event.until },
            dedupeKey: `venue_blocked:${event.venue}:${event.ip}:${Math.round(event.until / 10_000)}`,
          }),
        );
        return;
      case 'store-failed':
        deps.log.warn({ venue: event.venue, err: event.error }, 'venue budget store failed');
        return;
    }
  };
