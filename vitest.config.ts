import { defineConfig } from 'vitest/config';

// Five projects: `unit` (pure, fast), `integration` (real database, Redis, HTTP), `embedded` (the
// integration files the embedded mode runs differently, for the PGlite pass beside services), `e2e` (the
// built web app in Chromium against a real API) and `fleet` (the built apps as separate processes
// on PostgreSQL + Redis, scripts/fleet). Integration files are named `*.int.test.ts`, browser
// tests `apps/web/e2e/*.e2e.test.ts`, fleet tests `scripts/fleet/test/*.fleet.test.ts`.
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
  },
});
