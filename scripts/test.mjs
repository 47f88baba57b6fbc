// `npm test`: unit → integration on PGlite (only the embedded mode's files when DATABASE_URL /
// REDIS_URL are set) → (with them) the integration suite on PostgreSQL and Redis (less the files that always run on PGlite) → build → (when the web app has them) browser tests →
// (with both services) the fleet tests.
// Ends with one line "tests: N passed, N failed" summing every phase.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
mkdirSync(`${root}artifacts`, { recursive: true });
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedPhases = [];

const run = (label, command, args, env) => {
  process.stdout.write(`\n━━ ${label}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
};

const vitest = (label, project, env, name) => {
  const report = `${root}artifacts/vitest-${name}.json`;
  const ok = run(
    label,
    'npx',
    [
      'vitest',
      'run',
      '--project',
      project,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ],
    env,
  );
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    totals.passed += json.numPassedTests;
    totals.failed += json.numFailedTests;
    totals.skipped += json.numPendingTests + (json.numTodoTests ?? 0);
    if (json.numTotalTests === 0) failedPhases.push(`${label} (ran no test)`);
  }
  if (!ok) failedPhases.push(label);
};

const withoutServices = { DATABASE_URL: '', REDIS_URL: '' };

if (!run('prisma generate', 'npm', ['run', '--silent', 'db:generate'])) failedPhases.push('prisma generate');
vitest('unit tests', 'unit', withoutServices, 'unit');
const withServices = Boolean(process.env.DATABASE_URL || process.env.REDIS_URL);
// With services, the integration suite runs on them below (vitest.config.ts leaves out the files that always run on PGlite); PGlite then runs the files whose
// behaviour differs in the embedded mode (the `embedded` project, vitest.config.ts).
vitest(
  withServices
    ? 'integration tests of the embedded mode on PGlite (in-process rate limits)'
    : 'integration tests on PGlite (in-process rate limits)',
  withServices ? 'embedded' : 'integration',
  withoutServices,
  'integration-pglite',
);
if (withServices) {
  vitest(
    `integration tests on ${[process.env.DATABASE_URL && 'PostgreSQL', process.env.REDIS_URL && 'Redis'].filter(Boolean).join(' + ')}`,
    'integration',
    {},
    'integration-services',
  );
}
const webPackage = JSON.parse(readFileSync(`${root}apps/web/package.json`, 'utf8'));
const services = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
if (webPackage.scripts?.e2e || services) {
  // Every app (the web app for the browser tests, the others for the fleet), cached by turbo.
  if (!run('build', 'npx', ['turbo', 'run', 'build', '--output-logs=errors-only']))
    failedPhases.push('build');
  else {
    if (webPackage.scripts?.e2e) vitest('browser tests (Playwright + Chromium)', 'e2e', {}, 'e2e');
    // The apps as separate processes on PostgreSQL + Redis (scripts/fleet).
    if (services) vitest('fleet tests (separate processes on PostgreSQL + Redis)', 'fleet', {}, 'fleet');
  }
}

process.stdout.write(`\n${failedPhases.length ? `failed phases: ${failedPhases.join(', ')}\n` : ''}`);
process.stdout.write(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
process.exit(failedPhases.length > 0 || totals.failed > 0 ? 1 : 0);
