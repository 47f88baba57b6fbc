import { defineConfig } from 'vitest/config';

// Four projects: `unit` (pure, fast), `integration` (real database, Redis, HTTP), `e2e` (the
// built web app in Chromium against a real API) and `fleet` (the built apps as separate processes
// on PostgreSQL + Redis, scripts/fleet). Integration files are named `*.int.test.ts`, browser
// tests `apps/web/e2e/*.e2e.test.ts`, fleet tests `scripts/fleet/test/*.fleet.test.ts`.
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
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: true,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['apps/web/e2e/**/*.e2e.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
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
