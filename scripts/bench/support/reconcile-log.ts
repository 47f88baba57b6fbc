// The reconciles that placed or filled orders, read back from the fleet's worker logs (each worker
// logs one line per such reconcile: apps/worker/src/jobs/reconcile.ts), with the time it logged.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type ReconcileLine = { worker: string; at: number };

export const readReconciles = (logDir: string): ReconcileLine[] =>
  readdirSync(logDir)
    .filter((file) => /^worker-\d+\.log$/.test(file))
    .flatMap((file) =>
      readFileSync(join(logDir, file), 'utf8')
        .split('\n')
        .filter((line) => line.includes(': placed '))
        .map((line) => ({
          worker: file.replace('.log', ''),
          at: (JSON.parse(line) as { time: number }).time,
        })),
    );
