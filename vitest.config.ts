import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Five projects: `unit` (pure, fast), `integration` (real database, Redis, HTTP), `embedded` (the
// integration files the embedded mode runs differently, for the PGlite pass beside services), `e2e` (the
// built web app in Chromium against a real API) and `fleet` (the built apps as separate processes
// on PostgreSQL + Redis, scripts/fleet). Integration files are named `*.int.test.ts`, browser
// tests `apps/web/e2e/*.e2e.test.ts`, fleet tests `scripts/fleet/test/*.fleet.test.ts`.
/**
 * The files that take longest, longest first (CI rehearsals of 2026-11-28). A fresh clone has no
 * timing cache, so vitest would start them in its own order: one that takes two minutes started
 * last keeps the other worker idle. These start first; every other file keeps vitest's order.
 */
const LONG_FILES = [
  'apps/web/e2e/screens.e2e.test.ts',
  'apps/web/e2e/a11y.e2e.test.ts',
  'apps/web/e2e/telegram.e2e.test.ts',
  'apps/web/e2e/wallet-flow.e2e.test.ts',
  'apps/web/e2e/coin-chart.e2e.test.ts',
  'apps/web/e2e/partners-flow.e2e.test.ts',
  'apps/web/e2e/add-edit.e2e.test.ts',
  'apps/worker/test/grid-crash.int.test.ts',
  'packages/db/test/pglite-lock.int.test.ts',
  'apps/standalone/test/restart.int.test.ts',
  'packages/ledger/test/hardening.int.test.ts',
  'apps/standalone/test/thief.int.test.ts',
  'apps/standalone/test/demo-history.int.test.ts',
  'apps/standalone/test/wallet-chain.int.test.ts',
  'apps/worker/test/user-data-streams.int.test.ts',
];

class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = LONG_FILES.findIndex((path) => file.moduleId.endsWith(path));
      return index === -1 ? LONG_FILES.length : index;
    };
    return sorted
      .map((file, order) => ({ file, order, rank: rank(file) }))
      .sort((a, b) => a.rank - b.rank || a.order - b.order)
      .map(({ file }) => file);
  }
}

/** How integration files run (the `integration` and `embedded` projects): two files at a time. */
const integrationRun = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 60_000,
  fileParallelism: true,
  maxWorkers: 2,
  sequence: { groupOrder: 1 },
} as const;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**', 'apps/web/e2e/**'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['packages/*/test/**/*.int.test.ts', 'apps/*/test/**/*.int.test.ts'],
          // Files that run on PGlite whatever the environment says (the standalone launcher is
          // given its own environment; the PGlite driver's own tests): with services, the
          // `embedded` pass runs them, so the services pass leaves them out rather than repeat them.
          exclude: [
            '**/node_modules/**',
            ...(process.env.DATABASE_URL
              ? ['apps/standalone/test/**', 'packages/db/test/pglite-*.int.test.ts']
              : []),
          ],
          ...integrationRun,
        },
      },
      {
        // What the embedded mode (PGlite, in-process queues and limits) runs differently from
        // PostgreSQL + Redis: the database driver and its lock, the one-process demo, the money paths
        // under concurrency (PGlite has one connection), the demo's trading and the panel's SQL
        // function. With services, `npm test` runs the integration suite on PostgreSQL + Redis
        // and only these files again on PGlite; without services, the whole suite on PGlite.
        test: {
          name: 'embedded',
          include: [
            'packages/db/test/**/*.int.test.ts',
            'packages/ledger/test/**/*.int.test.ts',
            'apps/standalone/test/**/*.int.test.ts',
            'packages/services/test/seed-demo-*.int.test.ts',
            'apps/worker/test/grid-lifecycle.int.test.ts',
            'apps/worker/test/grid-crash.int.test.ts',
            'apps/api/test/wallet-money.int.test.ts',
            'apps/api/test/portfolio.int.test.ts',
            'apps/api/test/session.int.test.ts',
          ],
          ...integrationRun,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['apps/web/e2e/**/*.e2e.test.ts'],
          environment: 'node',
          // Each file has its own API, database and browser (no shared Redis): two at a time.
          fileParallelism: true,
          maxWorkers: 2,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // A page under a loaded CI machine takes seconds, not the default second, to show a change.
          expect: { poll: { timeout: 10_000 } },
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          name: 'fleet',
          include: ['scripts/fleet/test/**/*.fleet.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 300_000,
          sequence: { groupOrder: 3 },
        },
      },
    ],
    allowOnly: !process.env.CI,
    sequence: { sequencer: LongFilesFirst },
  },
});
